/**
 * Degradation level 2 (DESIGN.md "Compaction", from spec 004): a compressed tool message shrinks further to
 * `{"status", "tool", "ref"?, "summary": "<one line>"}`. Works on any content, including malformed JSON.
 */
import { clip, isFiniteNumber, isRecord, isString, type JsonRecord } from './json-guards.js';

const SUMMARY_CHARS = 200;

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), SUMMARY_CHARS);
}

function count(value: unknown): string {
  return isFiniteNumber(value) ? String(value) : '?';
}

function describe(toolName: string, data: JsonRecord): string | undefined {
  switch (toolName) {
    case 'LS':
      return isString(data.path) ? `listed ${data.path}: ${count(data.total)} entries` : undefined;
    case 'Glob':
      return isString(data.pattern) ? `glob ${data.pattern}: ${count(data.total)} files` : undefined;
    case 'Grep':
      return isString(data.pattern) ? `grep ${data.pattern}: ${count(data.total)} matches` : undefined;
    case 'Read':
      return isString(data.path)
        ? `read ${data.path} lines ${count(data.start_line)}-${count(data.end_line)} of ${count(data.total_lines)}`
        : undefined;
    case 'Edit':
    case 'MultiEdit':
      if (!isString(data.path)) return undefined;
      return data.applied === false
        ? `edit of ${data.path} not applied`
        : `edited ${data.path}: ${count(data.replacements)} replacements`;
    case 'Write':
      return isString(data.path)
        ? `${String(data.action ?? 'wrote')} ${data.path} (${count(data.lines)} lines)`
        : undefined;
    case 'Bash':
      return isString(data.command)
        ? `$ ${clip(data.command, 80)} -> exit ${data.exit_code === null ? 'none' : count(data.exit_code)}`
        : undefined;
    case 'TodoWrite':
      return isString(data.recap) ? `todos ${data.recap}` : undefined;
    default:
      return undefined;
  }
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return undefined;
  }
}

/** The one-line form of a compressed tool message (degradation level 2). Always valid JSON; never throws. */
export function shrinkToolMessage(content: string, toolName: string): string {
  const parsed = parse(content);
  const record = isRecord(parsed) ? parsed : undefined;
  const status = record !== undefined && isString(record.status) ? record.status : 'unknown';
  let summary: string | undefined;
  if (record !== undefined && isRecord(record.error)) {
    summary = `${String(record.error.code ?? 'ERROR')}: ${String(record.error.message ?? '')}`;
  } else if (record !== undefined && isRecord(record.data)) {
    summary = describe(toolName, record.data);
  }
  summary ??= `result of ${content.length} characters`;
  // The tool-memory reference survives shrinking: the one-line form names what it dropped.
  const ref = record !== undefined && isString(record.ref) ? { ref: clip(record.ref, 40) } : {};
  return JSON.stringify({ status, tool: toolName, ...ref, summary: oneLine(summary) });
}
