/**
 * Replays conversations through a strategy and accounts every call: each model call and each summary call goes
 * through the same prompt-cache simulation and is priced with its output; compactions, degradation events,
 * overflows (a model request larger than the window) and the memory figure are counted.
 */
import type { ModelPrice } from '../../src/providers/model-prices.js';
import { addMemory, emptyMemory, recalledPaths, type MemoryTotals } from './memory.js';
import { PrefixCache } from './prefix-cache.js';
import { contentNeeds, missedNeeds, RECOVERY_CALL_OUTPUT_TOKENS } from './fidelity.js';
import { addCall, callDollars, emptyTotals, replayPrice, type CallTotals } from './pricing.js';
import type { ReplayTask, Strategy, StrategyEvent } from './strategy.js';

export interface ReplayMetrics {
  conversations: number;
  /** The agent's own model calls (one per recorded step). */
  model: CallTotals;
  /** Summary calls the strategy made (each with its real request). */
  summary: CallTotals;
  /** Times conversation content left the prompt (with or without a summary). */
  compactions: number;
  /** Shrinking or dropping without a model call: pruning, masking, mca's degradation levels. */
  degradations: number;
  /** Model requests larger than the window: such a request could not be sent. */
  overflows: number;
  memory: { overall: MemoryTotals; afterFirstCompaction: MemoryTotals };
  /**
   * Forgetting priced (fidelity.ts): each need a request lacked, charged as one extra call that re-sends that
   * request plus the recovered content, through the same cache and prices.
   */
  forgetting: { misses: number; dollars: number; inputTokens: number };
  /**
   * Model calls that did not read from the cache all of the previous call's cached prefix: something already
   * cached changed (a compaction, a shrink, a pruned or masked result), and everything after it was written again.
   */
  cacheRewrites: number;
}

export type StrategyFactory = () => Strategy;

function emptyMetrics(conversations: number): ReplayMetrics {
  return {
    conversations,
    model: emptyTotals(),
    summary: emptyTotals(),
    compactions: 0,
    degradations: 0,
    overflows: 0,
    memory: { overall: emptyMemory(), afterFirstCompaction: emptyMemory() },
    forgetting: { misses: 0, dollars: 0, inputTokens: 0 },
    cacheRewrites: 0,
  };
}

/** Each conversation (a session alone, or a day of sessions as rounds) gets a fresh strategy and cache. */
export async function replay(
  conversations: readonly (readonly ReplayTask[])[],
  create: StrategyFactory,
  contextWindow: number,
  price: ModelPrice = replayPrice(),
): Promise<ReplayMetrics> {
  const metrics = emptyMetrics(conversations.length);
  for (const conversation of conversations) {
    const strategy = create();
    const cache = new PrefixCache();
    const recalled = recalledPaths(conversation);
    const needed = contentNeeds(conversation);
    let compacted = false;
    /** Tokens of the previous model call's cached prefix (read + written). */
    let cachedBefore = 0;
    const account = (events: readonly StrategyEvent[]) => {
      for (const event of events) {
        if (event.kind === 'summary')
          addCall(metrics.summary, cache.request(event.segments), event.outputTokens, price);
        else if (event.kind === 'compaction') {
          metrics.compactions += 1;
          compacted = true;
        } else metrics.degradations += 1;
      }
    };
    for (const task of conversation) {
      for (const turn of task.turns) {
        account(await strategy.startTurn(turn.text));
        for (const step of turn.steps) {
          const { call, events } = await strategy.nextCall();
          account(events);
          const cacheAccount = cache.request(call.segments);
          if (cacheAccount.tokens > contextWindow) metrics.overflows += 1;
          if (cacheAccount.read < cachedBefore) metrics.cacheRewrites += 1;
          cachedBefore = cacheAccount.read + cacheAccount.written;
          const paths = recalled.get(step) ?? [];
          const needs = needed.get(step) ?? [];
          addMemory(metrics.memory.overall, call.segments, paths, task.task, needs);
          if (compacted) addMemory(metrics.memory.afterFirstCompaction, call.segments, paths, task.task, needs);
          addCall(metrics.model, cacheAccount, strategy.record(step, call), price);
          for (const need of missedNeeds(call.segments, needs)) {
            // The extra step: this request again, then the recovered content as the newest (cached) block.
            const extra = cache.request([...call.segments, { text: need.recovered, cacheBreakpoint: true }]);
            metrics.forgetting.misses += 1;
            metrics.forgetting.inputTokens += extra.tokens;
            metrics.forgetting.dollars += callDollars(extra, RECOVERY_CALL_OUTPUT_TOKENS, price);
          }
        }
        strategy.endTurn();
      }
    }
  }
  return metrics;
}

/** Dollars of all calls (model and summary). */
export function totalDollars(metrics: ReplayMetrics): number {
  return metrics.model.dollars + metrics.summary.dollars;
}

/** Dollars with forgetting priced: every call, plus one extra call per miss. */
export function chargedDollars(metrics: ReplayMetrics): number {
  return totalDollars(metrics) + metrics.forgetting.dollars;
}

/** Share of earlier content present in the requests (NaN when none was asked). */
export function contentShare(memory: MemoryTotals): number {
  return memory.contentAsked === 0 ? Number.NaN : memory.contentPresent / memory.contentAsked;
}

/** Share of recalled paths present in the requests (NaN when none was asked). */
export function pathShare(memory: MemoryTotals): number {
  return memory.pathsAsked === 0 ? Number.NaN : memory.pathsPresent / memory.pathsAsked;
}

/** Share of calls whose request carries the current task's text (NaN when no call was measured). */
export function taskShare(memory: MemoryTotals): number {
  return memory.calls === 0 ? Number.NaN : memory.taskPresent / memory.calls;
}
