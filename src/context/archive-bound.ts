/**
 * The bounded archive (issue 13 deliverable 5; README "Context engine"). Summaries are never re-summarized
 * (spec A5), yet the archive may not grow until a request no longer fits: when the archive entries take more than
 * ARCHIVE_SHARE of the history budget, the oldest entries leave the prompt whole. Each is kept in tool memory by
 * reference, and one deterministic index entry takes their place: per entry, the rounds it covers, its first
 * request line and `Recall{ref}`. An index is an entry like any other, so a later fold folds it too: the archive
 * in the prompt stays bounded, and every round stays covered (the index spans the rounds of what it replaced).
 */
import { archivedUsageField } from './archived-usage.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import { LEDGER_HEADING } from './facts-ledger.js';
import { isSummary, nowIso, type Message } from './message.js';
import { renderMessage } from './transcript.js';

/** The share of the history budget the archive entries may take before the oldest fold into an index. */
export const ARCHIVE_SHARE = 0.25;
export const ARCHIVE_INDEX_HEADING = '## 📌 Archive index (older entries, full text by Recall{ref})';

const LINE_CHARS = 300;

function tokensOf(messages: readonly Message[]): number {
  return Math.floor(messages.reduce((sum, message) => sum + renderMessage(message).length + 2, 0) / 3);
}

function requestsOf(entry: Message): string {
  const ledger = entry.content.indexOf(LEDGER_HEADING);
  const text = ledger >= 0 ? entry.content.slice(ledger) : entry.content;
  const line =
    text.split('\n').find((candidate) => candidate.startsWith('- Requests: ') || candidate.startsWith('- Rounds ')) ??
    entry.content.split('\n').find((candidate) => candidate.trim() !== '' && !candidate.startsWith('#')) ??
    '';
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}

function indexLine(entry: Message, memory: ToolMemory | undefined): string {
  const [first, last] = entry.metadata.coversRounds ?? [entry.metadata.round, entry.metadata.round];
  const ref = memory?.store(entry.content);
  const where = ref === undefined ? 'full text not stored' : `Recall{"ref":"${ref}"}`;
  return `- Rounds ${first}–${last} · ${where} · ${requestsOf(entry)}`;
}

/**
 * Folds the oldest archive entries into one index entry while the entries exceed `budgetTokens × ARCHIVE_SHARE`.
 * The newest entry always stays. Returns the list unchanged when it is within the bound.
 */
export function boundArchive(
  messages: readonly Message[],
  budgetTokens: number,
  memory: ToolMemory | undefined,
): { messages: Message[]; folded: number } {
  const limit = Math.floor(budgetTokens * ARCHIVE_SHARE);
  const entries = messages.filter(isSummary);
  if (entries.length < 2 || tokensOf(entries) <= limit) return { messages: [...messages], folded: 0 };
  const rest = messages.filter((message) => !isSummary(message));
  let fold = 1;
  let best: { index: Message; remaining: Message[] } | undefined;
  for (; fold <= entries.length - 1; fold += 1) {
    const leaving = entries.slice(0, fold);
    const remaining = entries.slice(fold);
    const lines = leaving.map((entry) => indexLine(entry, memory));
    const first = leaving[0]?.metadata.coversRounds?.[0] ?? leaving[0]?.metadata.round ?? 0;
    const last = Math.max(...leaving.map((entry) => entry.metadata.coversRounds?.[1] ?? entry.metadata.round));
    const index: Message = {
      role: 'summary',
      content: `${ARCHIVE_INDEX_HEADING}\n\n${lines.join('\n')}`,
      metadata: { round: last, ts: nowIso(), coversRounds: [first, last], ...archivedUsageField(leaving) },
    };
    best = { index, remaining };
    if (tokensOf([index, ...remaining]) <= limit) break;
  }
  if (best === undefined) return { messages: [...messages], folded: 0 };
  return { messages: [best.index, ...best.remaining, ...rest], folded: Math.min(fold, entries.length - 1) };
}
