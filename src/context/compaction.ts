/**
 * Pure compaction steps over a message list (spec A4, C6; DESIGN.md "Compaction"). The HistoryManager owns the
 * state and the summarizer call; these functions only split and rewrite lists, always at round boundaries, so an
 * action and its result (always in the same round) can never be separated.
 */
import { isSummary, toRounds, type Message, type Round } from './message.js';
import { TRANSCRIPT_SEPARATOR, renderMessage, messageBody, type FullResults } from './transcript.js';
import { shrinkToolMessage } from './tool-result-shrinker.js';

export interface CompactionPlan {
  /** User/assistant/tool messages of the oldest closed rounds, for the summarizer. Never a summary. */
  archive: Message[];
  /** Existing summaries, then the retained closed rounds, then the open round, in order. */
  retain: Message[];
  roundsArchived: number;
  /** Closed rounds retained verbatim. */
  roundsKept: number;
}

/** The rounds of a history, split into closed ones and the open (newest, unfinished) one. */
export function splitRounds(messages: readonly Message[]): { closed: Round[]; open: Round | undefined } {
  const rounds = toRounds(messages);
  const last = rounds[rounds.length - 1];
  if (last !== undefined && !last.closed) return { closed: rounds.slice(0, -1), open: last };
  return { closed: rounds, open: undefined };
}

/** Keeps the newest `minRetainRounds` closed rounds; with that many or fewer closed rounds nothing is archived. */
export function planCompaction(messages: readonly Message[], minRetainRounds: number): CompactionPlan {
  const summaries = messages.filter(isSummary);
  const { closed, open } = splitRounds(messages);
  const archivedCount = Math.max(0, closed.length - minRetainRounds);
  const archived = closed.slice(0, archivedCount);
  const kept = closed.slice(archivedCount);
  return {
    archive: archived.flatMap((round) => round.messages),
    retain: [...summaries, ...kept.flatMap((round) => round.messages), ...(open?.messages ?? [])],
    roundsArchived: archived.length,
    roundsKept: kept.length,
  };
}

/** Characters of a list rendered as an L3 transcript, without building the string. */
export function transcriptChars(messages: readonly Message[], full?: FullResults): number {
  let chars = 0;
  for (const message of messages) chars += renderMessage(message, full).length;
  return chars + Math.max(0, messages.length - 1) * TRANSCRIPT_SEPARATOR.length;
}

/**
 * Tool messages of closed rounds older than the newest `fullRounds` closed rounds shrink to their one-line form
 * (which keeps the tool-memory reference). With `fullRounds` 1 this is degradation level 2; the compaction's
 * retention policy applies it with RETENTION.fullRounds. The open round is never touched.
 */
export function shrinkOlderToolMessages(
  messages: readonly Message[],
  fullRounds = 1,
  full?: FullResults,
  spare?: ReadonlySet<Message>,
): { messages: Message[]; shrunk: number } {
  const { closed } = splitRounds(messages);
  const older = new Set<Message>(
    closed.slice(0, Math.max(0, closed.length - fullRounds)).flatMap((round) => round.messages),
  );
  let shrunk = 0;
  const result = messages.map((message) => {
    if (message.role !== 'tool' || message.metadata.shrunk === true || !older.has(message)) return message;
    if (spare?.has(message) === true) return message;
    const content = shrinkToolMessage(message.content, message.metadata.toolName ?? 'unknown');
    // A result already shorter than its one-line form stays as it is.
    if (content.length >= messageBody(message, full).length) return message;
    shrunk += 1;
    return { ...message, content, metadata: { ...message.metadata, shrunk: true } };
  });
  return { messages: result, shrunk };
}

/** Summaries and closed rounds: what L3 renders (the open round is measured as this turn's input instead). */
export function closedPart(messages: readonly Message[]): Message[] {
  const { open } = splitRounds(messages);
  if (open === undefined) return [...messages];
  const openMessages = new Set(open.messages);
  return messages.filter((message) => !openMessages.has(message));
}

/**
 * Level 3: the fewest oldest closed rounds whose removal makes `fits(remaining, gone)` hold (the caller measures
 * the remaining list with the archive entry that will cover `gone`). Never drops the newest closed round, the
 * open round or a summary; returns undefined when even dropping every other round would not fit.
 */
export function dropOldestRounds(
  messages: readonly Message[],
  fits: (remaining: Message[], gone: Message[]) => boolean,
): { messages: Message[]; gone: Message[]; dropped: number; kept: number } | undefined {
  const { closed } = splitRounds(messages);
  const droppable = closed.slice(0, -1);
  for (let count = 1; count <= droppable.length; count += 1) {
    const gone = droppable.slice(0, count).flatMap((round) => round.messages);
    const goneSet = new Set<Message>(gone);
    const remaining = messages.filter((message) => !goneSet.has(message));
    if (fits(remaining, gone)) return { messages: remaining, gone, dropped: count, kept: closed.length - count };
  }
  return undefined;
}

/** The list with `entry` placed after the existing summaries (where a new archive entry goes). */
export function withArchiveEntry(messages: readonly Message[], entry: Message): Message[] {
  const summaries = messages.filter(isSummary).length;
  return [...messages.slice(0, summaries), entry, ...messages.slice(summaries)];
}
