/**
 * Token-budgeted retention by value (issue 36; spec A4 allows it: whole rounds stay, at least the newest N of them).
 * Below the threshold every result shows in full (DESIGN.md "No forgetting without pressure"). When a compaction must
 * make room in the rounds it keeps, the rounds stay whole and their tool results change form, in the order of
 * `retainWithinBudget`: stale Reads first, then bulky results outside the working set, oldest first, then the rest,
 * the working set last. The newest closed round and the open round are never touched. A stale Read of a file edited later keeps the lines
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
import { messageBody, type FullResults } from './transcript.js';

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
  /** The working set: paths read or changed in this many newest closed rounds (and the open round). */
  workingSetRounds: 3,
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

/** What one rewrite step does to a result: show its stored compressed form, or shrink it to one line. */
type Step = 'compress' | 'one-line' | 'stale';

interface Candidate {
  index: number;
  step: Step;
  anchors: string[];
}

const WORK_TOOLS = new Set(['Read', 'Edit', 'MultiEdit', 'Write']);

/**
 * The working set (DESIGN.md "Compaction"): the paths read or changed in the newest WORKING_SET_ROUNDS closed rounds
 * and the open round. Their newest Read, and every change, stays whole as long as anything else can shrink.
 */
function workingPaths(closed: ReturnType<typeof splitRounds>['closed'], open?: Message[]): Set<string> {
  const recent = [
    ...closed.slice(-RETENTION_LIMITS.workingSetRounds).flatMap((round) => round.messages),
    ...(open ?? []),
  ];
  const paths = new Set<string>();
  for (const message of recent) {
    const path = pathOf(message);
    if (message.role === 'tool' && path !== undefined && WORK_TOOLS.has(message.metadata.action?.tool ?? '')) {
      paths.add(path);
    }
  }
  return paths;
}

/**
 * The working set's results in `messages`: for each working path, its newest Read that no later step made stale, and
 * its changes. The ladder's one-line step spares them until it must shrink the newest round too.
 */
export function workingSetResults(messages: readonly Message[]): Set<Message> {
  const { closed, open } = splitRounds(messages);
  const working = workingPaths(closed, open?.messages);
  const kept = new Set<Message>();
  const changedOrRead = new Set<string>();
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    const path = pathOf(message);
    const tool = message.metadata.action?.tool ?? '';
    if (message.role !== 'tool' || path === undefined || !working.has(path) || !WORK_TOOLS.has(tool)) continue;
    if (CHANGES.has(tool)) kept.add(message);
    else if (!changedOrRead.has(path)) kept.add(message);
    changedOrRead.add(path);
  }
  return kept;
}

/**
 * The kept rounds of `messages` within `targetTokens` (the closed part, as L3 renders it: whole results in full when
 * `full` finds them), by value, in one rewrite (DESIGN.md "Compaction"):
 *   1. stale Reads (the file was changed or read again since): the lines around later edits, else one line;
 *   2. bulky whole results outside the working set, oldest first: their compressed form (A3);
 *   3. bulky compressed results outside the working set, oldest first: one line;
 *   4. every other result outside the working set, oldest first: one line;
 *   5. the working set's results, oldest first: their compressed form.
 * The newest closed round and the open round are never touched; every shrunk result keeps its reference. Nothing
 * changes when the list already fits. Returns the list and how many results changed form.
 */
export function retainWithinBudget(
  messages: readonly Message[],
  targetTokens: number,
  full?: FullResults,
): { messages: Message[]; shrunk: number } {
  const list = [...messages];
  let chars = transcriptChars(closedPart(list), full);
  const limit = Math.max(0, targetTokens) * 3;
  if (chars <= limit) return { messages: list, shrunk: 0 };
  const { closed, open } = splitRounds(list);
  const newest = new Set<Message>(closed.at(-1)?.messages ?? []);
  const inClosed = new Set<Message>(closed.flatMap((round) => round.messages));
  const working = workingPaths(closed, open?.messages);
  // One pass from the newest message back: what each path saw later (a change, a Read) is known in linear time.
  const laterChanges = new Map<string, Message[]>();
  const laterRead = new Set<string>();
  const stale: Candidate[] = [];
  const bulky: Candidate[] = [];
  const rest: Candidate[] = [];
  const protectedOnes: Candidate[] = [];
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const message = list[index] as Message;
    if (message.role !== 'tool') continue;
    const path = pathOf(message);
    const tool = message.metadata.action?.tool ?? '';
    const eligible = message.metadata.shrunk !== true && inClosed.has(message) && !newest.has(message);
    if (eligible) {
      const isRead = tool === 'Read';
      const changes = path === undefined ? [] : (laterChanges.get(path) ?? []);
      const seenAgain = path !== undefined && laterRead.has(path);
      const body = messageBody(message, full);
      if (isRead && (changes.length > 0 || seenAgain)) {
        stale.push({ index, step: 'stale', anchors: changes.flatMap(anchorsOf) });
      } else if (path !== undefined && working.has(path) && WORK_TOOLS.has(tool)) {
        protectedOnes.push({ index, step: 'compress', anchors: [] });
      } else if (body.length >= RETENTION_LIMITS.bulkyChars) {
        bulky.push({ index, step: 'compress', anchors: [] });
      } else {
        rest.push({ index, step: 'one-line', anchors: [] });
      }
    }
    if (path !== undefined && CHANGES.has(tool)) laterChanges.set(path, [...(laterChanges.get(path) ?? []), message]);
    if (path !== undefined && tool === 'Read') laterRead.add(path);
  }
  const oldestFirst = (candidates: Candidate[]) => candidates.sort((a, b) => a.index - b.index);
  const bulkyOneLine = oldestFirst(bulky).map((candidate) => ({ ...candidate, step: 'one-line' as const }));
  const order = [...oldestFirst(stale), ...bulky, ...bulkyOneLine, ...oldestFirst(rest), ...oldestFirst(protectedOnes)];
  const changed = new Set<number>();
  for (const candidate of order) {
    if (chars <= limit) break;
    const message = list[candidate.index] as Message;
    if (message.metadata.shrunk === true) continue;
    const before = messageBody(message, full);
    const toolName = message.metadata.toolName ?? 'unknown';
    let next: Message;
    if (candidate.step === 'compress') {
      if (message.metadata.compressed === true || message.content.length >= before.length) continue;
      next = { ...message, metadata: { ...message.metadata, compressed: true } };
    } else {
      const content =
        (candidate.step === 'stale' ? shrinkReadAround(message.content, candidate.anchors) : undefined) ??
        shrinkToolMessage(message.content, toolName);
      if (content.length >= before.length) continue;
      next = { ...message, content, metadata: { ...message.metadata, compressed: true, shrunk: true } };
    }
    chars -= before.length - messageBody(next, full).length;
    list[candidate.index] = next;
    changed.add(candidate.index);
  }
  return { messages: list, shrunk: changed.size };
}

/**
 * The rounds a compaction keeps, within RETENTION_LIMITS.keptShare of the budget beside `fixedTokens`; without a
 * budget (a bare `compact()`), the round-count rule: the newest `fullRounds` keep their results, older ones shrink.
 */
export function retainForCompaction(
  retained: readonly Message[],
  budget: { budgetTokens?: number; fixedTokens?: number; fullResults?: FullResults },
  fullRounds: number,
): Message[] {
  if (budget.budgetTokens === undefined) {
    return shrinkOlderToolMessages(retained, fullRounds, budget.fullResults).messages;
  }
  const target = budget.budgetTokens * RETENTION_LIMITS.keptShare - (budget.fixedTokens ?? 0);
  return retainWithinBudget(retained, target, budget.fullResults).messages;
}
