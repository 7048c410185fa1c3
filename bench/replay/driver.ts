/**
 * Replays conversations through a strategy and accounts every model call: raw input tokens, prompt-cache
 * cost, peak request, overflows (a request larger than the window), compactions, build time.
 */
import { median, percentile } from '../lib/stats.js';
import { PrefixCache } from './prefix-cache.js';
import type { ReplayTask, Strategy } from './strategy.js';

export interface ReplayMetrics {
  conversations: number;
  calls: number;
  inputTokens: number;
  weightedTokens: number;
  cacheRead: number;
  cacheWritten: number;
  uncached: number;
  peakRequest: number;
  compactions: number;
  overflows: number;
  buildMedianMs: number;
  buildP95Ms: number;
  degradations: { level1: number; level2: number; level3: number };
}

export type StrategyFactory = () => Strategy;

/** Each conversation (a session alone, or a day of sessions as rounds) gets a fresh strategy and cache. */
export async function replay(
  conversations: readonly (readonly ReplayTask[])[],
  create: StrategyFactory,
  contextWindow: number,
): Promise<ReplayMetrics> {
  const metrics: ReplayMetrics = {
    conversations: conversations.length,
    calls: 0,
    inputTokens: 0,
    weightedTokens: 0,
    cacheRead: 0,
    cacheWritten: 0,
    uncached: 0,
    peakRequest: 0,
    compactions: 0,
    overflows: 0,
    buildMedianMs: 0,
    buildP95Ms: 0,
    degradations: { level1: 0, level2: 0, level3: 0 },
  };
  const buildTimes: number[] = [];
  for (const conversation of conversations) {
    const strategy = create();
    const cache = new PrefixCache();
    for (const task of conversation) {
      await strategy.startTask(task.task);
      for (const step of task.steps) {
        const call = await strategy.nextCall();
        const account = cache.request(call.segments);
        metrics.calls += 1;
        metrics.inputTokens += account.tokens;
        metrics.weightedTokens += account.weighted;
        metrics.cacheRead += account.read;
        metrics.cacheWritten += account.written;
        metrics.uncached += account.uncached;
        metrics.peakRequest = Math.max(metrics.peakRequest, account.tokens);
        if (account.tokens > contextWindow) metrics.overflows += 1;
        buildTimes.push(call.buildMs);
        strategy.record(step, call);
      }
      strategy.endTask();
    }
    metrics.compactions += strategy.compactions;
    const levels = (strategy as { degradations?: ReplayMetrics['degradations'] }).degradations;
    if (levels !== undefined) {
      metrics.degradations.level1 += levels.level1;
      metrics.degradations.level2 += levels.level2;
      metrics.degradations.level3 += levels.level3;
    }
  }
  metrics.buildMedianMs = median(buildTimes);
  metrics.buildP95Ms = percentile(buildTimes, 95);
  return metrics;
}

/** Sessions in file-name order, grouped into days of `perDay` tasks (the last day may be shorter). */
export function toDays<T>(tasks: readonly T[], perDay: number): T[][] {
  const days: T[][] = [];
  for (let index = 0; index < tasks.length; index += perDay) days.push(tasks.slice(index, index + perDay));
  return days;
}
