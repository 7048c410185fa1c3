/**
 * Model usage a tool spent on its own (the Agent tool's nested session): it rides in the result's `stats`, per
 * model, and the loop adds it to the turn's usage and reports it as `usage` events naming their model, so a
 * subagent's tokens and cost count toward the session's, priced at the model the subagent ran on. The parent's context size (`contextTokens`) is not changed by it.
 */
import { addUsage, type Usage, ZERO_USAGE } from '../providers/types.js';
import type { AgentEvent } from './events.js';
import type { ToolEnvelope } from '../tools/envelope.js';

/** The counters a carried usage keeps, under `carried:<model>:<counter>` (model '' when unknown). */
const COUNTERS = ['inputTokens', 'outputTokens', 'cacheCreationInputTokens', 'cacheReadInputTokens'] as const;
const PREFIX = 'carried:';
/** A tool's result carries usage of at most this many models (a subagent uses one or two). */
const MAX_MODELS = 16;

/** Usage per model (the model's name, '' when unknown), as result stats: each model keeps its own price. */
export function carriedUsageStats(byModel: Readonly<Record<string, Usage>>): Record<string, number> {
  const stats: Record<string, number> = {};
  for (const [model, usage] of Object.entries(byModel).slice(0, MAX_MODELS)) {
    for (const counter of COUNTERS) stats[`${PREFIX}${model}:${counter}`] = usage[counter];
  }
  return stats;
}

/** The usage a result carries, one entry per model (`model` set unless unknown); empty when it carries none. */
export function carriedUsage(envelope: ToolEnvelope): Usage[] {
  const byModel = new Map<string, Usage>();
  for (const [key, value] of Object.entries(envelope.stats)) {
    if (!key.startsWith(PREFIX) || typeof value !== 'number') continue;
    const split = key.lastIndexOf(':');
    const model = key.slice(PREFIX.length, split);
    const counter = COUNTERS.find((name) => name === key.slice(split + 1));
    if (counter === undefined) continue;
    const usage = byModel.get(model) ?? { ...ZERO_USAGE, ...(model === '' ? {} : { model }) };
    byModel.set(model, { ...usage, [counter]: usage[counter] + value });
  }
  return [...byModel.values()].filter((usage) => COUNTERS.some((counter) => usage[counter] > 0));
}

/**
 * Passes a step's events on; after each `tool_end` whose result carries usage, adds it to `turn.usage` and
 * reports it as a `usage` event (with the parent's own context size). Returns what the step returned.
 */
export async function* withCarriedUsage<Outcome>(
  events: AsyncGenerator<AgentEvent, Outcome>,
  turn: { usage: Usage },
  step: number,
  contextTokens: number,
): AsyncGenerator<AgentEvent, Outcome> {
  for (;;) {
    const next = await events.next();
    if (next.done === true) return next.value;
    yield next.value;
    if (next.value.type !== 'tool_end') continue;
    // One usage event per model, each with its model: fronts price it at that model's rates.
    for (const usage of carriedUsage(next.value.result)) {
      turn.usage = addUsage(turn.usage, usage);
      yield { type: 'usage', step, usage, contextTokens };
    }
  }
}
