import { describe, expect, it } from 'vitest';
import { targetRows, renderReport, type BenchResults } from '../../bench/report.js';
import { syntheticHistory, verdictOf, type ScalingRow } from '../../bench/scaling-bench.js';
import { median, percentile } from '../../bench/lib/stats.js';
import type { ReplayMetrics } from '../../bench/replay/driver.js';
import { emptyTotals } from '../../bench/replay/pricing.js';
import type { StartupResult } from '../../bench/startup-bench.js';

function metrics(dollars: number, overflows = 0): ReplayMetrics {
  const totals = { ...emptyTotals(), calls: 10, inputTokens: 5_000, dollars, peakRequest: 1_000 };
  return {
    conversations: 1,
    model: totals,
    summary: { ...emptyTotals(), calls: 2, inputTokens: 800, outputTokens: 3_000, dollars: 0.5 },
    compactions: 1,
    degradations: 3,
    overflows,
    memory: {
      overall: { calls: 10, pathsAsked: 8, pathsPresent: 6, taskPresent: 5, contentAsked: 0, contentPresent: 0 },
      afterFirstCompaction: {
        calls: 4,
        pathsAsked: 4,
        pathsPresent: 2,
        taskPresent: 0,
        contentAsked: 0,
        contentPresent: 0,
      },
    },
    forgetting: { misses: 0, dollars: 0, inputTokens: 0 },
    cacheRewrites: 0,
  };
}

const row = (messages: number, stepMedianMs: number): ScalingRow => ({
  messages,
  historyTokens: 0,
  buildMedianMs: stepMedianMs,
  buildP95Ms: stepMedianMs * 2,
  stepMedianMs,
  stepP95Ms: stepMedianMs * 2,
  coldMedianMs: stepMedianMs,
  coldP95Ms: stepMedianMs * 2,
  heapDeltaMb: 0,
});

describe('stats', () => {
  it('uses nearest-rank percentiles', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
  });
});

describe('scaling', () => {
  it('builds a valid history of the requested size with one open round', () => {
    const history = syntheticHistory(1_000);
    expect(Math.abs(history.messages.length - 1_000)).toBeLessThanOrEqual(2);
    expect(history.openRound()?.messages).toHaveLength(1);
  });

  it('names the growth from the log-log slope', () => {
    expect(verdictOf([row(100, 1), row(10_000, 100)])).toMatch(/^linear/);
    expect(verdictOf([row(100, 1), row(10_000, 10)])).toMatch(/^sub-linear/);
    expect(verdictOf([row(100, 1), row(10_000, 10_000)])).toMatch(/^super-linear/);
  });
});

describe('report', () => {
  const results: BenchResults = {
    date: '2026-01-01T00:00:00Z',
    machine: { cpu: 'cpu', cores: 2, memoryGb: 4, node: 'v20', os: 'linux', load: 0.5 },
    command: 'npm run bench',
    durationS: 1,
    replay: {
      dataDir: 'bench/data/trajectories',
      sessions: 1,
      steps: 10,
      droppedNags: 0,
      systemTokens: 100,
      removedInstructionTokens: 1_500,
      pricedModel: 'claude-sonnet-4-5',
      workloads: [
        {
          label: 'Long days (15 tasks per day)',
          slug: 'days-64k',
          window: 64_000,
          maxOutputTokens: 8_192,
          conversations: 1,
          userTurns: 15,
          byStrategy: {
            mca: metrics(2),
            'mca-native': metrics(2),
            'claude-code': metrics(1.5),
            codex: metrics(1),
            opencode: metrics(1),
            'gemini-cli': metrics(3),
            naive: metrics(4, 7),
          },
        },
      ],
    },
    scaling: { rows: [row(1_001, 1)], verdict: 'linear' },
  };

  it('sets no replay target and checks build p95 at 1,000 messages', () => {
    expect(targetRows(results).map((entry) => [entry.target, entry.figure, entry.met])).toEqual([
      ['build ≤ 5 ms p95 at 1,000 messages', '2.00 ms', true],
    ]);
  });

  it('shows cost and memory side by side per strategy, naive marked unsendable, and links the plot', () => {
    const text = renderReport(results, { 'days-64k': 'bench/plots/replay-days-64k.svg' });
    expect(text).toContain('Machine: cpu, 2 cores');
    expect(text).toContain('## How this is measured');
    expect(text).toContain(
      '| `mca` | $2.50 | 1.00× | $2.50 ($2.00 + $0.50) | 0 ($0.00) | 0 | 0 | 0 | 10 / 2 | 1 | 3 | 1,000 | 75.0% / 50.0% | — / — | 50.0% / 0.0% |',
    );
    expect(text).toContain('| `codex` | $1.50 | 0.60× | $1.50 ($1.00 + $0.50) |');
    expect(text).toContain('| `naive` (reference; unsendable) | $4.50');
    expect(text).toContain('![cost vs memory, Long days (15 tasks per day), 64,000](bench/plots/replay-days-64k.svg)');
  });
});

describe('start-up report', () => {
  const request = (wallMs: number, firstRequestMs: number, serverMs: number, peakRssMb: number) => ({
    wallMs,
    firstRequestMs,
    serverMs,
    netMs: wallMs - serverMs,
    exitMs: 3,
    peakRssMb,
  });
  const startup = (overrides: Partial<StartupResult> = {}): StartupResult => ({
    runs: 20,
    rssMethod: '/usr/bin/time',
    toolSteps: 7,
    nodeMs: 40,
    versionMs: 52,
    helpMs: 60,
    script: request(50, 40, 1, 41),
    oneShot: request(150, 100, 1, 60),
    multiStep: request(186, 101, 2, 70),
    perStepMs: 5,
    perStepByDifferenceMs: 4,
    perStepAllInMs: 23,
    stepGaps: [
      { tool: 'LS', ms: 4 },
      { tool: 'Grep', ms: 8 },
      { tool: 'Read', ms: 3 },
    ],
    package: { packedBytes: 1_400_000, unpackedBytes: 9_999_999, files: 42, dependencies: 0 },
    ...overrides,
  });
  const base: BenchResults = {
    date: '2026-01-01T00:00:00Z',
    machine: { cpu: 'cpu', cores: 2, memoryGb: 4, node: 'v20', os: 'linux', load: 0.5 },
    command: 'npm run bench -- --only startup',
    durationS: 1,
  };

  it('checks the six targets of issue 17, each met exactly at its bound', () => {
    const rows = targetRows({ ...base, startup: startup() });
    expect(rows.map((row) => [row.target, row.figure, row.met])).toEqual([
      ['`mca -p` one-shot wall ≤ 3× the bare `node:http` request script', '3.00× (150 ms vs 50 ms)', true],
      ['`mca -p` spawn → first request ≤ 2.5× the script’s', '2.50× (100 ms vs 40 ms)', true],
      ['per-step overhead ≤ 5 ms (mean over the 7 tool steps: answer finished → next request)', '5.0 ms', true],
      ['peak RSS ≤ 70 MB (one-shot and 8-step `-p`)', '70.0 MB (one-shot 60.0 MB)', true],
      ['`mca --version` ≤ 1.3× `node -e 0`', '1.30×', true],
      ['package < 10 MB unpacked', '10.00 MB (42 files)', true],
    ]);
  });

  it('misses each target just past its bound', () => {
    const missed = startup({
      oneShot: request(151, 101, 1, 60),
      multiStep: request(186, 101, 2, 70.1),
      perStepMs: 5.01,
      versionMs: 52.1,
      package: { packedBytes: 1, unpackedBytes: 10_000_000, files: 1, dependencies: 0 },
    });
    expect(targetRows({ ...base, startup: missed }).map((row) => row.met)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('shows the baselines, the per-step arithmetic and the package in section 3', () => {
    const text = renderReport({ ...base, startup: startup() });
    expect(text).toContain(
      '| bare `node:http` request script (baseline of `-p`) | 50.0 ms | 1.00× | 40.0 ms | 41.0 MB |',
    );
    expect(text).toContain('| `mca -p "Say ok."` (one model call) | 150.0 ms | 3.00× | 100.0 ms (2.50×) | 60.0 MB |');
    expect(text).toContain('| 8 steps (8 model calls) | 186.0 ms | 2.0 ms | 184.0 ms | 3.0 ms |');
    expect(text).toContain('| cross-check: (8-step − one-shot) / 7 |  |  | 4.00 ms |  |');
    expect(text).toContain('| 2. Grep | 8.00 ms |');
    expect(text).toContain('| **mean: per-step overhead** | 5.00 ms |');
    expect(text).toContain('| median of the steps | 4.00 ms |');
    expect(text).toContain('| runtime dependencies (its package.json) | 0 |');
    expect(text).toContain('### Start-up (bench/startup-bench.ts)');
  });
});
