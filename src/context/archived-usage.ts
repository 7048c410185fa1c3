/**
 * What a session's model calls used, per model, over messages that may include archive entries: an assistant
 * message's own `usage` (keyed by the model that made the call, '' when the record predates that) plus what each
 * summary archived (`archivedUsage`). Compaction stores the archived messages' sum on the summary that replaces
 * them, so cost adds up across /compact and /resume.
 */
import type { Message } from './message.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';

export type UsageByModel = Record<string, Usage>;

/** Adds `usage` under `model` ('' = unknown). */
export function addModelUsage(byModel: Readonly<UsageByModel>, usage: Usage, model = usage.model ?? ''): UsageByModel {
  return { ...byModel, [model]: addUsage(byModel[model] ?? ZERO_USAGE, usage) };
}

/** The per-model usage `messages` account for (their own usage and what their summaries archived). */
export function usageByModel(messages: readonly Message[]): UsageByModel {
  let total: UsageByModel = {};
  for (const message of messages) {
    if (message.metadata.usage) total = addModelUsage(total, message.metadata.usage);
    for (const [model, usage] of Object.entries(message.metadata.archivedUsage ?? {})) {
      total = addModelUsage(total, usage, model);
    }
  }
  return total;
}

/** `{ archivedUsage }` for a summary replacing `archive`, or nothing when those messages used nothing. */
export function archivedUsageField(archive: readonly Message[]): { archivedUsage?: UsageByModel } {
  const byModel = usageByModel(archive);
  return Object.keys(byModel).length > 0 ? { archivedUsage: byModel } : {};
}
