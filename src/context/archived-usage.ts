/**
 * What a session's model calls used, per model, over messages that may include archive entries: an assistant
 * message's own `usage` (keyed by the model that made the call, '' when the record predates that), what a tool
 * message's subagent used (`carriedUsage`, per model), what each summary archived (`archivedUsage`) and what a
 * conversation rewind removed (`rewoundUsage`). Compaction stores the archived messages' sum on the summary that
 * replaces them, and a rewind the removed messages' sum on the last message it keeps, so cost adds up across
 * /compact, /rewind and /resume.
 * This is the one place the session's cost is read from its messages (the REPL's /cost and status line use it).
 * Counters read from a session file are trusted only when they are finite non-negative numbers.
 */
import type { Message } from './message.js';
import { addUsage, USAGE_COUNTERS, ZERO_USAGE, type Usage } from '../providers/types.js';

export type UsageByModel = Record<string, Usage>;

/** Adds `usage` under `model` ('' = unknown). */
export function addModelUsage(byModel: Readonly<UsageByModel>, usage: Usage, model = usage.model ?? ''): UsageByModel {
  return { ...byModel, [model]: addUsage(byModel[model] ?? ZERO_USAGE, usage) };
}

/** The per-model usage `messages` account for (their own usage and what their summaries archived). */
export function usageByModel(messages: readonly Message[]): UsageByModel {
  let total: UsageByModel = {};
  for (const message of messages) {
    const { usage, carriedUsage, archivedUsage, rewoundUsage } = message.metadata;
    if (isUsage(usage)) total = addModelUsage(total, usage);
    for (const byModel of [carriedUsage, archivedUsage, rewoundUsage]) total = addUsageByModel(total, byModel);
  }
  return total;
}

/** `total` plus a stored per-model usage (`carriedUsage`, `archivedUsage`, `rewoundUsage`), its valid entries only. */
function addUsageByModel(total: UsageByModel, byModel: unknown): UsageByModel {
  if (!isObject(byModel)) return total;
  let sum = total;
  for (const [model, each] of Object.entries(byModel)) if (isUsage(each)) sum = addModelUsage(sum, each, model);
  return sum;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A usage whose counters are all finite non-negative numbers (a hand-edited or hostile file may hold anything). */
function isUsage(value: unknown): value is Usage {
  if (!isObject(value)) return false;
  return USAGE_COUNTERS.every((counter) => {
    const count = value[counter];
    return typeof count === 'number' && Number.isFinite(count) && count >= 0;
  });
}

/** `{ archivedUsage }` for a summary replacing `archive`, or nothing when those messages used nothing. */
export function archivedUsageField(archive: readonly Message[]): { archivedUsage?: UsageByModel } {
  const byModel = usageByModel(archive);
  return Object.keys(byModel).length > 0 ? { archivedUsage: byModel } : {};
}

/**
 * `kept` with what `before` used beyond it (the calls of the messages a conversation rewind removed) added to the
 * `rewoundUsage` of its last message; `kept` as it is when nothing was removed or no message is left to carry it.
 * `kept`'s calls are a subset of `before`'s, so the difference per model and counter is what the removed ones used
 * (clamped at zero for hand-edited files).
 */
export function keepRewoundUsage(before: readonly Message[], kept: readonly Message[]): Message[] {
  const last = kept[kept.length - 1];
  const after = usageByModel(kept);
  let removed: UsageByModel = {};
  for (const [model, spent] of Object.entries(usageByModel(before))) {
    const left = after[model] ?? ZERO_USAGE;
    const difference = Object.fromEntries(
      USAGE_COUNTERS.map((counter) => [counter, Math.max(0, spent[counter] - left[counter])]),
    ) as Record<(typeof USAGE_COUNTERS)[number], number>;
    if (USAGE_COUNTERS.some((counter) => difference[counter] > 0)) removed = { ...removed, [model]: difference };
  }
  if (last === undefined || Object.keys(removed).length === 0) return [...kept];
  const carried = addUsageByModel(addUsageByModel({}, last.metadata.rewoundUsage), removed);
  return [...kept.slice(0, -1), { ...last, metadata: { ...last.metadata, rewoundUsage: carried } }];
}
