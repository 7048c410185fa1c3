import { describe, expect, it } from 'vitest';
import { targetRows, renderReport, type BenchResults } from '../../bench/report.js';
import { syntheticHistory, verdictOf, type ScalingRow } from '../../bench/scaling-bench.js';
import { median, percentile } from '../../bench/lib/stats.js';
import type { ReplayMetrics } from '../../bench/replay/driver.js';

const metrics = (weightedTokens: number, overflows = 0): ReplayMetrics => ({
  conversations: 1,
  calls: 10,
  inputTokens: weightedTokens * 5,
  weightedTokens,
  cacheRead: 0,
  cacheWritten: 0,
  uncached: 0,
  peakRequest: 1000,
  compactions: 1,
  overflows,
  buildMedianMs: 0.1,
  buildP95Ms: 0.2,
  degradations: { level1: 0, level2: 0, level3: 0 },
});

const row = (messages: number, stepMedianMs: number): ScalingRow => ({
  messages,
  historyTokens: 0,
  buildMedianMs: stepMedianMs,
  buildP95Ms: stepMedianMs * 2,
  stepMedianMs,
  stepP95Ms: stepMedianMs * 2,
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

describe('targets', () => {
  const results: BenchResults = {
    date: '2026-01-01T00:00:00Z',
    machine: { cpu: 'cpu', cores: 2, memoryGb: 4, node: 'v20', os: 'linux', load: 0.5 },
    command: 'npm run bench',
    durationS: 1,
    replay: {
      sessions: 1,
      steps: 10,
      droppedNags: 0,
      systemTokens: 100,
      workloads: [
        {
          label: 'Long days (15 tasks per day)',
          window: 64_000,
          conversations: 1,
          byStrategy: {
            naive: metrics(1000),
            'full-then-compact': metrics(400),
            mca: metrics(200, 2),
            'mca-read100': metrics(150, 1),
          },
        },
      ],
    },
    scaling: { rows: [row(1_001, 1)], verdict: 'linear' },
  };

  it('compares mca with both baselines, counts overflows and checks build p95 at 1,000 messages', () => {
    expect(targetRows(results).map((entry) => [entry.figure, entry.met])).toEqual([
      ['0.50×', true],
      ['0.20×', true],
      ['2', false],
      ['2.00 ms', true],
    ]);
  });

  it('renders the targets with ✓/✗ and the machine line', () => {
    const text = renderReport(results);
    expect(text).toContain('| long days @ 64k: mca zero overflows | 2 | ✗ |');
    expect(text).toContain('Machine: cpu, 2 cores');
    expect(text).toContain('## How this is measured');
  });
});
