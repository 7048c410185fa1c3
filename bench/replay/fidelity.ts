/**
 * The content figure and the forgetting charge (BENCHMARKS.md "Memory", "Forgetting"). A path in the request is
 * not enough to act on: an Edit needs the exact text it replaces, a second Read of a file asks again for what the
 * first one showed. For every recorded step this finds what earlier content its action needs; at each replayed
 * request it checks whether the request carries that content. A need the request lacks is a miss: the model would
 * have to spend one more step to get it back (a Read, or a Recall of a reference), which the driver prices.
 *
 * Needs, read from the recording only (never from a strategy):
 * - an Edit whose `old_string` appeared earlier in the conversation needs that text;
 * - a Read of a file that an earlier step read needs what the newest earlier Read of it showed;
 * - a path the action names that appeared earlier (the path figure of memory.ts) needs that path.
 * "Carries" is line-wise: each sampled line of the needed text (trimmed, at least MIN_LINE_CHARS) must appear in
 * the request verbatim or JSON-escaped (history stores results as JSON). A Read's need is sampled to at most
 * SAMPLE_LINES lines spread over the earlier view; an Edit's `old_string` is checked whole.
 */
import { pathsNamedBy } from './path-extraction.js';
import type { Segment } from './prefix-cache.js';
import type { ReplayStep, ReplayTask } from './strategy.js';

export const SAMPLE_LINES = 5;
export const MIN_LINE_CHARS = 8;
/** Output tokens of the extra call that asks for the content again (one short tool call). */
export const RECOVERY_CALL_OUTPUT_TOKENS = 40;

export interface ContentNeed {
  kind: 'edit' | 'reread' | 'path';
  /** The file the need is about (for a `path` need, the path itself). */
  path: string;
  /** The lines (or the path) that must be in the request. */
  lines: string[];
  /** What the extra step brings back when the request lacks it (the earlier recorded result). */
  recovered: string;
}

/** Lines of a view without their line numbers (`12\ttext`, `12:text`), trimmed, long enough to be telling. */
function telling(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*\d+(?:\t|:)/, '').trim())
    .filter((line) => line.length >= MIN_LINE_CHARS);
}

function sample(lines: readonly string[], count = SAMPLE_LINES): string[] {
  if (lines.length <= count) return [...lines];
  const picked: string[] = [];
  for (let index = 0; index < count; index += 1) {
    picked.push(lines[Math.floor((index * (lines.length - 1)) / (count - 1))] ?? '');
  }
  return picked;
}

/** For every step of a conversation: the earlier content its action needs. */
export function contentNeeds(conversation: readonly ReplayTask[]): Map<ReplayStep, ContentNeed[]> {
  const needs = new Map<ReplayStep, ContentNeed[]>();
  const earlier: string[] = [];
  const seenBefore = (text: string) => earlier.some((entry) => entry.includes(text));
  /** The newest recorded view of each path a Read showed. */
  const views = new Map<string, string>();
  for (const task of conversation) {
    for (const turn of task.turns) {
      earlier.push(turn.text);
      for (const step of turn.steps) {
        const found: ContentNeed[] = [];
        const action = step.action;
        const output = action?.envelope.text ?? '';
        if (action?.tool === 'Edit' && typeof action.input.old_string === 'string') {
          const lines = telling(action.input.old_string);
          if (lines.length > 0 && lines.every(seenBefore)) {
            const path = typeof action.input.path === 'string' ? action.input.path : '';
            found.push({ kind: 'edit', path, lines, recovered: views.get(path) ?? action.input.old_string });
          }
        }
        if (action?.tool === 'Read' && typeof action.input.path === 'string') {
          const before = views.get(action.input.path);
          const lines = before === undefined ? [] : sample(telling(before));
          if (before !== undefined && lines.length > 0)
            found.push({ kind: 'reread', path: action.input.path, lines, recovered: before });
        }
        for (const path of step.call === undefined ? [] : pathsNamedBy(step.call)) {
          if (seenBefore(path)) found.push({ kind: 'path', path, lines: [path], recovered: path });
        }
        needs.set(step, found);
        if (action?.tool === 'Read' && typeof action.input.path === 'string') views.set(action.input.path, output);
        earlier.push(step.thought, step.recordedCall ?? '', output);
      }
    }
  }
  return needs;
}

/** Whether the request carries `line` verbatim or as it reads inside a JSON string. */
function carriesLine(segments: readonly Segment[], line: string): boolean {
  const escaped = JSON.stringify(line).slice(1, -1);
  return segments.some((segment) => segment.text.includes(line) || segment.text.includes(escaped));
}

export function carriesNeed(segments: readonly Segment[], need: ContentNeed): boolean {
  return need.lines.every((line) => carriesLine(segments, line));
}

/**
 * The needs a request lacks, each one extra step: a missing path whose file also misses its content is one miss
 * (the step that brings the content back names the path too), not two.
 */
export function missedNeeds(segments: readonly Segment[], needs: readonly ContentNeed[]): ContentNeed[] {
  const missed = needs.filter((need) => !carriesNeed(segments, need));
  const contentMissed = new Set(missed.filter((need) => need.kind !== 'path').map((need) => need.path));
  return missed.filter((need) => need.kind !== 'path' || !contentMissed.has(need.path));
}
