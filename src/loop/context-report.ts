import type { Config } from '../config/config.js';
import type { BuiltContext } from '../context/context-builder.js';
import type { HistoryView } from '../context/context-engine.js';
import type { ContextPartId, ContextReport } from './controller.js';

const LABELS: Record<ContextPartId, string> = {
  l1: 'System + tools (L1)',
  l2: 'Project rules and memory files (L2)',
  l3: 'History (L3)',
  summaries: 'Archived summaries',
  input: 'Current input',
  scratchpad: 'This turn',
  todos: 'Todo recap',
};

/** Sizes per layer for `/context`, from the builder's estimates; summaries are shown apart from the rest of L3. */
export function contextReportOf(built: BuiltContext, config: Config, history: HistoryView): ContextReport {
  const parts: ContextReport['parts'] = [];
  for (const part of built.parts) {
    if (part.id === 'l3') {
      const summaryTokens = part.summaryTokens ?? 0;
      parts.push({ id: 'l3', label: LABELS.l3, tokens: part.tokens - summaryTokens });
      parts.push({ id: 'summaries', label: LABELS.summaries, tokens: summaryTokens });
    } else {
      parts.push({ id: part.id, label: LABELS[part.id], tokens: part.tokens });
    }
  }
  return {
    contextWindow: config.contextWindow,
    compressionThreshold: config.compressionThreshold,
    parts,
    lastUsage: history.lastUsage(),
    rounds: history.rounds().length,
    summaries: history.messages.filter((message) => message.role === 'summary').length,
    ...(config.contextProfile
      ? { profile: { name: config.contextProfile.name, overridden: [...config.contextProfile.overridden] } }
      : {}),
  };
}
