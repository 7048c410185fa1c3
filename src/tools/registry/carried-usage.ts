/**
 * Model usage a tool spent on its own (the Agent tool's nested session), carried in its result's `stats` per model
 * under `carried:<model>:<counter>` (model '' when unknown). The agent loop reports it as `usage` events
 * (src/loop/carried-usage.ts) and the context engine stores it on the tool message (`metadata.carriedUsage`), so a
 * subagent's cost is in the session file and counts again after a resume, priced at the model the subagent ran on.
 */
import { type Usage, USAGE_COUNTERS, ZERO_USAGE } from '../../providers/types.js';
import type { ToolEnvelope } from './envelope.js';

const PREFIX = 'carried:';
/** A tool's result carries usage of at most this many models (a subagent uses one or two). */
const MAX_MODELS = 16;

/** Usage per model (the model's name, '' when unknown), as result stats: each model keeps its own price. */
export function carriedUsageStats(byModel: Readonly<Record<string, Usage>>): Record<string, number> {
  const stats: Record<string, number> = {};
  for (const [model, usage] of Object.entries(byModel).slice(0, MAX_MODELS)) {
    for (const counter of USAGE_COUNTERS) stats[`${PREFIX}${model}:${counter}`] = usage[counter];
  }
  return stats;
}

/** The usage a result carries, one entry per model (`model` set unless unknown); empty when it carries none. */
export function carriedUsage(envelope: ToolEnvelope): Usage[] {
  const byModel = new Map<string, Usage>();
  for (const [key, value] of Object.entries(envelope.stats)) {
    if (!key.startsWith(PREFIX) || typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
    const split = key.lastIndexOf(':');
    const model = key.slice(PREFIX.length, split);
    const counter = USAGE_COUNTERS.find((name) => name === key.slice(split + 1));
    if (counter === undefined) continue;
    const usage = byModel.get(model) ?? { ...ZERO_USAGE, ...(model === '' ? {} : { model }) };
    byModel.set(model, { ...usage, [counter]: usage[counter] + value });
  }
  return [...byModel.values()].filter((usage) => USAGE_COUNTERS.some((counter) => usage[counter] > 0));
}

/** `{ carriedUsage }` keyed by model ('' when unknown), as a tool message stores it; nothing when there is none. */
export function carriedUsageField(envelope: ToolEnvelope): { carriedUsage?: Record<string, Usage> } {
  const list = carriedUsage(envelope);
  if (list.length === 0) return {};
  return { carriedUsage: Object.fromEntries(list.map((usage) => [usage.model ?? '', usage])) };
}
