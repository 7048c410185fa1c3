import { describe, expect, it } from 'vitest';
import { contextTargetsSection } from '../../bench/report-context-targets.js';
import type { ReplayMetrics } from '../../bench/replay/driver.js';
import { emptyTotals } from '../../bench/replay/pricing.js';
import type { ReplayResult, WorkloadResult } from '../../bench/replay-bench.js';

function metrics(
  dollars: number,
  options: { overflows?: number; paths?: number; compactions?: number; cached?: number } = {},
): ReplayMetrics {
  return {
    conversations: 1,
    model: { ...emptyTotals(), calls: 10, inputTokens: 5_000, dollars },
    summary: { ...emptyTotals(), calls: 1, inputTokens: 1_000, cacheRead: options.cached ?? 0, dollars: 0 },
    compactions: options.compactions ?? 1,
    degradations: 0,
    overflows: options.overflows ?? 0,
    memory: {
      overall: {
        calls: 10,
        pathsAsked: 10,
        pathsPresent: options.paths ?? 9,
        taskPresent: 10,
        contentAsked: 0,
        contentPresent: 0,
      },
      afterFirstCompaction: {
        calls: 0,
        pathsAsked: 0,
        pathsPresent: 0,
        taskPresent: 0,
        contentAsked: 0,
        contentPresent: 0,
      },
    },
    forgetting: { misses: 0, dollars: 0, inputTokens: 0 },
    cacheRewrites: 0,
  };
}

function replayOf(given: Partial<WorkloadResult['byStrategy']>): ReplayResult {
  // Strategies not given did not compact and overflowed (so they set no bar).
  const idle = metrics(1, { compactions: 0, overflows: 1, paths: 0 });
  const byStrategy: WorkloadResult['byStrategy'] = {
    mca: idle,
    'mca-native': idle,
    'claude-code': idle,
    codex: idle,
    opencode: idle,
    'gemini-cli': idle,
    naive: idle,
    ...given,
  };
  const workload: WorkloadResult = {
    label: 'Long days',
    slug: 'days-64k',
    window: 64_000,
    maxOutputTokens: 8_192,
    conversations: 1,
    userTurns: 1,
    byStrategy,
  };
  return {
    dataDir: 'd',
    sessions: 1,
    steps: 10,
    droppedNags: 0,
    systemTokens: 1,
    removedInstructionTokens: 0,
    pricedModel: 'm',
    workloads: [workload],
  };
}

describe('context engine targets', () => {
  it('checks each target against the peers, skipping peers with overflows for the cost target', () => {
    const section = contextTargetsSection(
      replayOf({
        mca: metrics(7, { paths: 10, cached: 950 }),
        'claude-code': metrics(10),
        codex: metrics(5, { overflows: 2 }),
        opencode: metrics(9, { paths: 10 }),
        'gemini-cli': metrics(12),
        naive: metrics(20, { overflows: 9, compactions: 0 }),
      }),
    ).join('\n');
    expect(section).toContain('| Long days, 64,000 | zero overflows | 0 | ✓ |');
    expect(section).toContain('| Long days, 64,000 | path recall ≥ best peer | 100.0% vs 100.0% | ✓ |');
    // codex is cheaper but overflowed: the bar is 0.8 × opencode's $9.00 = $7.20.
    expect(section).toContain('$7.00 = 0.78× `opencode` ($9.00) | ✓ |');
    expect(section).toContain('| summary input read from cache ≥ 90% | 95.0% | ✓ |');
  });

  it('reports a miss as a miss', () => {
    const section = contextTargetsSection(
      replayOf({ mca: metrics(9, { overflows: 1, paths: 8 }), opencode: metrics(9, { paths: 10 }) }),
    ).join('\n');
    expect(section).toContain('| zero overflows | 1 | ✗ |');
    expect(section).toContain('| path recall ≥ best peer | 80.0% vs 100.0% | ✗ |');
    expect(section).toContain('1.00× `opencode` ($9.00) | ✗ |');
    expect(section).toContain('| summary input read from cache ≥ 90% | 0.0% | ✗ |');
  });

  it('has nothing to say when no strategy compacts', () => {
    expect(contextTargetsSection(replayOf({ mca: metrics(1, { compactions: 0 }) }))).toEqual([]);
  });
});
