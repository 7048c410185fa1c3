/** Repeats an async action and reports wall-time samples (after `warmup` untimed runs). */
import { median, percentile } from './stats.js';

export interface Timing {
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
}

export async function timeRuns(runs: number, action: () => Promise<unknown>, warmup = 1): Promise<Timing> {
  for (let index = 0; index < warmup; index += 1) await action();
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return { runs, medianMs: median(samples), p95Ms: percentile(samples, 95), minMs: Math.min(...samples) };
}
