/**
 * Token-budgeted retention (issue 30; spec A4 allows it: whole rounds stay, at least the newest N of them). When a
 * compaction or the ladder must make room in the rounds it keeps, the rounds stay whole and their tool results
 * shrink, in this order, until the kept history fits the target:
 *   1. stale Reads: a Read of a file that a later kept step edited, wrote or read again (what it shows is outdated);
 *   2. bulky results (at least BULKY_CHARS), oldest first;
 *   3. every other result, oldest first.
 * The newest closed round and the open round are never touched. A stale Read of a file edited later keeps the lines
 * around those edits (the Edit anchors: the lines the edit replaced or wrote, with ANCHOR_CONTEXT lines either side),
 * so a further edit nearby still finds its text; every other result takes its one-line form. Every shrunk result
 * keeps its tool-memory reference, so Recall brings the full result back.
 *
 * Why this order: with prompt caching each call pays for reading its whole prompt, and a shrink rewrites the cache
 * from the first message it changes, so it is done only when a compaction rewrites that part anyway (or the ladder
 * must), and it takes first what the model is least likely to need again.
 */
import { isRecord, isString } from '../text/json-guards.js';
import { closedPart, shrinkOlderToolMessages, splitRounds, transcriptChars } from './compaction.js';
import type { Message } from './message.js';
import { shrinkToolMessage } from './tool-result-shrinker.js';

export const RETENTION_LIMITS = Object.freeze({
  /**
   * At a compaction, the kept rounds shrink until they, with what the request carries anyway (L1, L2, this turn),
   * fit this share of the budget: the other half is room for the turns until the next compaction.
   */
  keptShare: 0.5,
  /** A result of at least this many characters is bulky: it shrinks before smaller ones. */
  bulkyChars: 1_500,
  /** Lines kept either side of an Edit anchor in a stale Read. */
  anchorContext: 3,
  /** Anchor lines shorter than this (trimmed) say too little to find the place (`}`, `else:`). */
  minAnchorChars: 8,
});

const CHANGES = new Set(['Edit', 'MultiEdit', 'Write']);

function pathOf(message: Message): string | undefined {
  const input = message.metadata.action?.input;
  return isRecord(input) && isString(input.path) ? input.path : undefined;
}

/** The text lines an edit replaced or wrote (its anchors), trimmed, long enough to be telling. */
function anchorsOf(message: Message): string[] {
  const input = message.metadata.action?.input;
  if (!isRecord(input)) return [];
  const strings: string[] = [];
  for (const key of ['old_string', 'new_string', 'content']) if (isString(input[key])) strings.push(input[key]);
  if (Array.isArray(input.edits)) {
    for (const edit of input.edits) {
      if (isRecord(edit) && isString(edit.old_string)) strings.push(edit.old_string);
      if (isRecord(edit) && isString(edit.new_string)) strings.push(edit.new_string);
    }
  }
  return strings
    .flatMap((text) => text.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.length >= RETENTION_LIMITS.minAnchorChars);
}

/**
 * A compressed Read cut to the lines around `anchors` (numbered lines kept as they were, `…` between runs), with
 * its reference; undefined when no line matches (the caller then uses the one-line form).
 */
export function shrinkReadAround(content: string, anchors: readonly string[]): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !isRecord(parsed.data) || !isString(parsed.data.content) || anchors.length === 0) {
    return undefined;
  }
  const lines = parsed.data.content.split('\n');
  const keep = new Set<number>();
  const context = RETENTION_LIMITS.anchorContext;
  lines.forEach((line, index) => {
    const text = line.replace(/^\s*\d+\t/, '').trim();
    if (text.length > 0 && anchors.some((anchor) => text.includes(anchor) || anchor.includes(text))) {
      for (let at = Math.max(0, index - context); at <= Math.min(lines.length - 1, index + context); at += 1) {
        keep.add(at);
      }
    }
  });
  if (keep.size === 0 || keep.size >= lines.length) return undefined;
  const kept: string[] = [];
  let last = -2;
  for (const index of [...keep].sort((a, b) => a - b)) {
    if (index !== last + 1) kept.push('…');
    kept.push(lines[index] ?? '');
    last = index;
  }
  const { path, start_line, end_line, total_lines } = parsed.data;
  const shrunk = {
    status: parsed.status,
    tool: 'Read',
    ...(isString(parsed.ref) ? { ref: parsed.ref } : {}),
    summary: 'lines around later edits kept; the rest is in the ref',
    data: { path, start_line, end_line, total_lines, content: kept.join('\n') },
  };
  return JSON.stringify(shrunk);
}

interface Candidate {
  index: number;
  rank: number;
  anchors: string[];
}

/**
 * The kept rounds of `messages` within `targetTokens` (the closed part, as L3 renders it), shrinking results in
 * the order above; returns the list and how many results shrank. Nothing changes when it already fits.
 */
export function retainWithinBudget(
  messages: readonly Message[],
  targetTokens: number,
): { messages: Message[]; shrunk: number } {
  const list = [...messages];
  let chars = transcriptChars(closedPart(list));
  const limit = Math.max(0, targetTokens) * 3;
  if (chars <= limit) return { messages: list, shrunk: 0 };
  const { closed } = splitRounds(list);
  const newest = new Set<Message>(closed.at(-1)?.messages ?? []);
  const inClosed = new Set<Message>(closed.flatMap((round) => round.messages));
  const candidates: Candidate[] = [];
  list.forEach((message, index) => {
    if (message.role !== 'tool' || message.metadata.shrunk === true) return;
    if (!inClosed.has(message) || newest.has(message)) return;
    const path = pathOf(message);
    const later = path === undefined ? [] : list.slice(index + 1).filter((other) => other.role === 'tool');
    const changes = later.filter((other) => pathOf(other) === path && CHANGES.has(other.metadata.action?.tool ?? ''));
    const reread = later.some((other) => pathOf(other) === path && other.metadata.action?.tool === 'Read');
    const isRead = message.metadata.action?.tool === 'Read';
    const stale = isRead && (changes.length > 0 || reread);
    const rank = stale ? 0 : message.content.length >= RETENTION_LIMITS.bulkyChars ? 1 : 2;
    candidates.push({ index, rank, anchors: isRead ? changes.flatMap(anchorsOf) : [] });
  });
  // Stable: within a rank, the oldest first.
  candidates.sort((a, b) => a.rank - b.rank || a.index - b.index);
  let shrunk = 0;
  for (const candidate of candidates) {
    if (chars <= limit) break;
    const message = list[candidate.index] as Message;
    const toolName = message.metadata.toolName ?? 'unknown';
    const content =
      shrinkReadAround(message.content, candidate.anchors) ?? shrinkToolMessage(message.content, toolName);
    if (content.length >= message.content.length) continue;
    chars -= message.content.length - content.length;
    list[candidate.index] = { ...message, content, metadata: { ...message.metadata, shrunk: true } };
    shrunk += 1;
  }
  return { messages: list, shrunk };
}

/**
 * The rounds a compaction keeps, within RETENTION_LIMITS.keptShare of the budget beside `fixedTokens`; without a
 * budget (a bare `compact()`), the round-count rule: the newest `fullRounds` keep their results, older ones shrink.
 */
export function retainForCompaction(
  retained: readonly Message[],
  budget: { budgetTokens?: number; fixedTokens?: number },
  fullRounds: number,
): Message[] {
  if (budget.budgetTokens === undefined) return shrinkOlderToolMessages(retained, fullRounds).messages;
  const target = budget.budgetTokens * RETENTION_LIMITS.keptShare - (budget.fixedTokens ?? 0);
  return retainWithinBudget(retained, target).messages;
}

/**
 * A closed round as L3 shows it: a Read of a file that a later step of the same round edited, wrote or read again
 * shows only the lines around those edits (or its one-line form), with its reference. It depends on the round alone,
 * so a round renders the same in every request (the cached prefix stays stable), and it costs no cache rewrite:
 * the round enters L3 in this form. History keeps the stored result; Recall brings the full one back.
 */
export function withoutStaleReads(round: readonly Message[]): readonly Message[] {
  let result: Message[] | undefined;
  round.forEach((message, index) => {
    if (message.role !== 'tool' || message.metadata.action?.tool !== 'Read' || message.metadata.shrunk === true) return;
    const path = pathOf(message);
    if (path === undefined) return;
    const later = round.slice(index + 1).filter((other) => other.role === 'tool' && pathOf(other) === path);
    const changes = later.filter((other) => CHANGES.has(other.metadata.action?.tool ?? ''));
    if (changes.length === 0 && !later.some((other) => other.metadata.action?.tool === 'Read')) return;
    const anchored = shrinkReadAround(message.content, changes.flatMap(anchorsOf));
    const content = anchored ?? shrinkToolMessage(message.content, 'Read');
    if (content.length >= message.content.length) return;
    result ??= [...round];
    result[index] = { ...message, content };
  });
  return result ?? round;
}
