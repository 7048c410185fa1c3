/**
 * ToolResultCompressor (spec A3, C1; DESIGN.md). Turns a full tool envelope into the compact JSON string that
 * goes into history: `{status, data: <compressed>, error?: <whole>}`. `text`, `stats` and `context` are dropped.
 * Rules are by tool name; data that does not have the tool's documented shape (src/tools/tool-data.ts) falls
 * back to the unknown-tool rule, so this never throws.
 */
import type { ToolEnvelope } from '../tools/envelope.js';
import {
  clip,
  clipStart,
  isFiniteNumber,
  isRecord,
  isString,
  isStringArray,
  safeStringify,
  type JsonRecord,
} from './json-guards.js';

export { shrinkToolMessage } from './tool-result-shrinker.js';

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

const LIMIT = COMPRESSION_LIMITS;

/** Status markers copied from the original data whenever present (C1: they must survive compression). */
const MARKERS = ['truncated', 'applied', 'fallback', 'modified_externally', 'timed_out', 'interrupted'] as const;

const STATUSES = new Set(['success', 'partial', 'error']);

type Rule = (data: JsonRecord) => JsonRecord | undefined;

/** Splits text into lines, ignoring one trailing newline; "" has no lines. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** The first `max` lines, cut to `maxChars` characters; `cut` counts the lines not (wholly) kept. */
function headLines(text: string, max: number, maxChars: number): { text: string; cut: number } {
  const lines = linesOf(text);
  const head = lines.slice(0, max).join('\n');
  if (head.length <= maxChars) return { text: head, cut: Math.max(0, lines.length - max) };
  const clipped = clip(head, maxChars);
  const whole = clipped.split('\n').length - 1;
  return { text: clipped, cut: lines.length - whole };
}

function withCut(target: JsonRecord, field: string, cut: number): JsonRecord {
  if (cut > 0) target[field] = cut;
  return target;
}

const compressLs: Rule = (data) => {
  const { path, total, entries } = data;
  if (!isString(path) || !isFiniteNumber(total) || !isStringArray(entries)) return undefined;
  const kept = entries.slice(0, COMPRESSION_LIMITS.lsEntries).map((entry) => clip(entry, LIMIT.entryChars));
  return {
    path: clip(path, LIMIT.pathChars),
    total,
    entries: kept,
    truncated: data.truncated === true || kept.length < total,
  };
};

const compressGlob: Rule = (data) => {
  const { pattern, total, files } = data;
  if (!isString(pattern) || !isFiniteNumber(total) || !isStringArray(files)) return undefined;
  const kept = files.slice(0, COMPRESSION_LIMITS.globFiles).map((file) => clip(file, LIMIT.entryChars));
  return {
    pattern: clip(pattern, LIMIT.pathChars),
    total,
    files: kept,
    truncated: data.truncated === true || kept.length < total,
  };
};

const compressGrep: Rule = (data) => {
  const { pattern, total, matches } = data;
  if (!isString(pattern) || !isFiniteNumber(total) || !Array.isArray(matches)) return undefined;
  const lines: string[] = [];
  for (const match of matches.slice(0, COMPRESSION_LIMITS.grepMatches)) {
    if (!isRecord(match) || !isString(match.file) || !isFiniteNumber(match.line) || !isString(match.text)) {
      return undefined;
    }
    lines.push(`${clip(match.file, LIMIT.entryChars)}:${match.line}:${clip(match.text, LIMIT.grepLineChars)}`);
  }
  return {
    pattern: clip(pattern, LIMIT.pathChars),
    total,
    matches: lines,
    truncated: data.truncated === true || lines.length < total,
  };
};

const compressRead: Rule = (data) => {
  const { path, start_line, end_line, total_lines, content } = data;
  if (!isString(path) || !isFiniteNumber(start_line) || !isFiniteNumber(end_line) || !isString(content)) {
    return undefined;
  }
  const head = headLines(content, LIMIT.readLines, LIMIT.readChars);
  const result: JsonRecord = { path: clip(path, LIMIT.pathChars), start_line, end_line };
  if (isFiniteNumber(total_lines)) result.total_lines = total_lines;
  result.content = head.text;
  if (isFiniteNumber(data.mtime_ms)) result.mtime_ms = data.mtime_ms;
  return withCut(result, 'lines_cut', head.cut);
};

const compressEdit: Rule = (data) => {
  const { path, applied, replacements, diff } = data;
  if (!isString(path) || typeof applied !== 'boolean' || !isFiniteNumber(replacements) || !isString(diff)) {
    return undefined;
  }
  const head = headLines(diff, LIMIT.diffLines, LIMIT.diffChars);
  const result: JsonRecord = { path: clip(path, LIMIT.pathChars), applied, replacements };
  if (isFiniteNumber(data.edits)) result.edits = data.edits;
  result.diff = head.text;
  return withCut(result, 'diff_lines_cut', head.cut);
};

const compressWrite: Rule = (data) => {
  const { path, action } = data;
  if (!isString(path) || (action !== 'created' && action !== 'overwritten')) return undefined;
  const result: JsonRecord = { path: clip(path, LIMIT.pathChars), action };
  if (isFiniteNumber(data.lines)) result.lines = data.lines;
  if (action === 'created' && isString(data.content)) {
    const head = headLines(data.content, LIMIT.writeLines, LIMIT.writeChars);
    result.content = head.text;
    withCut(result, 'content_lines_cut', head.cut);
  }
  return result;
};

const compressBash: Rule = (data) => {
  const { command, exit_code, stdout, stderr } = data;
  const exitOk = exit_code === null || isFiniteNumber(exit_code);
  if (!isString(command) || !exitOk || !isString(stdout) || !isString(stderr)) return undefined;
  const stderrLines = linesOf(stderr);
  const result: JsonRecord = { command: clip(command, COMPRESSION_LIMITS.bashCommandChars), exit_code };
  if (isString(data.signal)) result.signal = data.signal;
  result.stdout_lines = linesOf(stdout).length;
  result.stdout_head = clip(stdout, COMPRESSION_LIMITS.bashStdoutChars);
  const tail = stderrLines.slice(-COMPRESSION_LIMITS.bashStderrLines);
  result.stderr_tail = clipStart(tail.join('\n'), COMPRESSION_LIMITS.bashStderrChars);
  if (stderrLines.length > tail.length) result.stderr_lines_cut = stderrLines.length - tail.length;
  if (data.stdout_truncated === true) result.stdout_truncated = true;
  if (data.stderr_truncated === true) result.stderr_truncated = true;
  return result;
};

const compressTodoWrite: Rule = (data) =>
  isString(data.recap) ? { recap: clip(data.recap, LIMIT.recapChars) } : undefined;

/** Recall's result is itself stored: history keeps where it pointed, not the text again. */
const compressRecall: Rule = (data) => {
  const { ref, start_line, end_line, total_lines } = data;
  if (!isString(ref) || !isFiniteNumber(start_line) || !isFiniteNumber(end_line) || !isFiniteNumber(total_lines)) {
    return undefined;
  }
  return { ref: clip(ref, 40), start_line, end_line, total_lines };
};

const RULES: Readonly<Record<string, Rule>> = {
  LS: compressLs,
  Glob: compressGlob,
  Grep: compressGrep,
  Read: compressRead,
  Edit: compressEdit,
  MultiEdit: compressEdit,
  Write: compressWrite,
  Bash: compressBash,
  TodoWrite: compressTodoWrite,
  Recall: compressRecall,
};

/** Unknown tools and malformed data: small data is kept as is, big data becomes a size note. */
function compressUnknown(data: unknown): JsonRecord | unknown {
  const serialized = safeStringify(data);
  if (serialized !== undefined && serialized.length <= COMPRESSION_LIMITS.unknownDataChars) {
    return JSON.parse(serialized) as unknown;
  }
  return { truncated: true, original_size: serialized?.length ?? 0 };
}

function copyMarkers(from: unknown, to: unknown): void {
  if (!isRecord(from) || !isRecord(to)) return;
  for (const marker of MARKERS) {
    const value = from[marker];
    if (value === undefined || marker in to) continue;
    if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') to[marker] = value;
  }
}

function compressError(error: unknown): JsonRecord | undefined {
  if (!isRecord(error)) return undefined;
  const message = String(error.message ?? '');
  return { code: clip(String(error.code ?? 'INTERNAL_ERROR'), 40), message: clip(message, LIMIT.errorMessageChars) };
}

/**
 * The history form of a tool result: always a valid JSON string, never throws. `ref` is the tool-memory reference
 * of the full result (issue 13): it leads the data, so every later form of the entry can name it.
 */
export function compressToolResult(toolName: string, envelope: ToolEnvelope<unknown>, ref?: string): string {
  const source: unknown = envelope;
  const record = isRecord(source) ? source : {};
  const status = isString(record.status) && STATUSES.has(record.status) ? record.status : 'error';
  const data = record.data;
  const rule = RULES[toolName];
  let compressed: unknown;
  try {
    compressed = rule !== undefined && isRecord(data) ? rule(data) : undefined;
  } catch {
    compressed = undefined;
  }
  if (compressed === undefined) compressed = compressUnknown(data ?? {});
  copyMarkers(data, compressed);
  const result: JsonRecord = ref === undefined ? { status, data: compressed } : { status, ref, data: compressed };
  const error = compressError(record.error);
  if (error !== undefined) result.error = error;
  return safeStringify(result) ?? JSON.stringify({ status, data: { truncated: true, original_size: 0 } });
}
