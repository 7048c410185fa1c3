/**
 * What the built-in tools' own compress/shrink/display members share: the history limits of DESIGN.md
 * "ToolResultCompressor" and small text helpers. Data handed to those members claims a shape but may not have it
 * (a replayed or damaged result), so every reader checks before it trusts.
 */
import { clip } from '../../text/json-guards.js';

export const COMPRESSION_LIMITS = Object.freeze({
  lsEntries: 10,
  globFiles: 10,
  grepMatches: 5,
  /** Characters kept of one grep match line (guards against minified files). */
  grepLineChars: 300,
  readLines: 500,
  diffLines: 20,
  writeLines: 30,
  bashStdoutChars: 200,
  bashStderrLines: 20,
  /** Guards for pathological cases the spec does not size: a heredoc command, a 20-line wall of stderr. */
  bashCommandChars: 1_000,
  bashStderrChars: 4_000,
  unknownDataChars: 1_000,
  /** Character caps beside every line cap, so one huge line (minified code, a generated blob) stays bounded. */
  pathChars: 500,
  entryChars: 300,
  readChars: 20_000,
  diffChars: 3_000,
  writeChars: 2_000,
  recapChars: 500,
  errorMessageChars: 4_000,
});

/** Splits text into lines, ignoring one trailing newline; "" has no lines. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** The first `max` lines, cut to `maxChars` characters; `cut` counts the lines not (wholly) kept. */
export function headLines(text: string, max: number, maxChars: number): { text: string; cut: number } {
  const lines = linesOf(text);
  const head = lines.slice(0, max).join('\n');
  if (head.length <= maxChars) return { text: head, cut: Math.max(0, lines.length - max) };
  const clipped = clip(head, maxChars);
  const whole = clipped.split('\n').length - 1;
  return { text: clipped, cut: lines.length - whole };
}

/** Sets `field` to `cut` when something was cut. */
export function withCut<Target extends Record<string, unknown>>(target: Target, field: string, cut: number): Target {
  if (cut > 0) (target as Record<string, unknown>)[field] = cut;
  return target;
}

/** `?` for a count that is not a finite number (the one-line forms of damaged data). */
export function count(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '?';
}

/** `1 line`, `3 lines`. */
export function plural(amount: number, word: string): string {
  return `${amount} ${word}${amount === 1 ? '' : 's'}`;
}

/** Display lines: trailing newlines dropped, "" has none. */
export function displayLines(text: string): string[] {
  const trimmed = text.replace(/\n+$/, '');
  return trimmed ? trimmed.split('\n') : [];
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function numberField(record: Record<string, unknown>, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** ` (truncated)` after a listing's count when the tool cut it. */
export function truncatedNote(data: Record<string, unknown>): string {
  return data.truncated === true ? ' (truncated)' : '';
}

/** The argument shown for a search (Glob, Grep): the pattern, `in <path>` unless the root, `(<include>)`. */
export function searchTitle(input: Record<string, unknown>): string {
  const pattern = stringField(input, 'pattern') ?? '';
  const path = stringField(input, 'path');
  const include = stringField(input, 'include');
  return [pattern, path && path !== '.' ? `in ${path}` : '', include ? `(${include})` : ''].filter(Boolean).join(' ');
}
