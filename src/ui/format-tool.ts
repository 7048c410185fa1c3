/**
 * One-line summaries of tool calls (`Read(src/a.ts)`) and results (`120 lines`) for the transcript.
 * Inputs and data come from the model and the tools, so every field is read defensively.
 */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { ToolEnvelope } from '../tools/envelope.js';
import { firstLine, truncate } from './text-width.js';

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {};
}

function str(record: Fields, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

function num(record: Fields, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function lines(text: string): string[] {
  const trimmed = text.replace(/\n+$/, '');
  return trimmed ? trimmed.split('\n') : [];
}

/** The argument shown in `Tool(arg)`: a path, a pattern, a command, a count. */
export function callArgument(tool: string, input: unknown): string {
  const args = fields(input);
  switch (tool) {
    case 'Read': {
      const path = str(args, 'path') ?? '';
      const start = num(args, 'start_line');
      return start && start > 1 ? `${path}:${start}` : path;
    }
    case 'LS':
      return str(args, 'path') ?? '.';
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
      return str(args, 'path') ?? '';
    case 'Glob':
    case 'Grep': {
      const pattern = str(args, 'pattern') ?? '';
      const path = str(args, 'path');
      const include = str(args, 'include');
      return [pattern, path && path !== '.' ? `in ${path}` : '', include ? `(${include})` : '']
        .filter(Boolean)
        .join(' ');
    }
    case 'Bash':
      return (str(args, 'command') ?? '').replace(/\s*\n\s*/g, ' ⏎ ');
    case 'TodoWrite': {
      const todos = args.todos;
      return Array.isArray(todos) ? plural(todos.length, 'todo') : '';
    }
    default: {
      const json = JSON.stringify(input ?? {});
      return json === '{}' ? '' : json;
    }
  }
}

/** `Read(src/a.ts)`, cut to `width` columns; control characters in the model's input shown visibly. */
export function summarizeCall(tool: string, input: unknown, width: number): string {
  const argument = neutralizeControlSequences(callArgument(tool, input));
  const room = Math.max(4, width - tool.length - 2);
  return `${neutralizeControlSequences(tool)}(${truncate(argument, room)})`;
}

export interface ResultSummary {
  line: string;
  tone: 'normal' | 'error' | 'warning';
}

function bashSummary(data: Fields): string {
  const exit = data.exit_code;
  // A replayed (compressed) result counts its lines in stdout_lines; its stdout is only the head.
  const stdoutLines = num(data, 'stdout_lines') ?? lines(str(data, 'stdout') ?? '').length;
  const stderrLines = lines(str(data, 'stderr') ?? '').length;
  const head =
    data.timed_out === true ? 'timed out' : data.interrupted === true ? 'interrupted' : `exit ${String(exit)}`;
  const parts = [head];
  if (stdoutLines > 0) parts.push(plural(stdoutLines, 'stdout line'));
  if (stderrLines > 0) parts.push(plural(stderrLines, 'stderr line'));
  if (stdoutLines === 0 && stderrLines === 0) parts.push('no output');
  return parts.join(' · ');
}

function successSummary(tool: string, data: Fields, result: ToolEnvelope): string {
  const truncatedNote = data.truncated === true ? ' (truncated)' : '';
  switch (tool) {
    case 'Read': {
      const start = num(data, 'start_line') ?? 1;
      const end = num(data, 'end_line') ?? start - 1;
      const total = num(data, 'total_lines');
      const count = Math.max(0, end - start + 1);
      const of = total !== undefined && total !== count ? ` of ${total}` : '';
      const external = data.modified_externally === true ? ' · modified externally' : '';
      return `${plural(count, 'line')}${of}${external}`;
    }
    case 'LS':
      return `${plural(num(data, 'total') ?? 0, 'entry').replace('entrys', 'entries')}${truncatedNote}`;
    case 'Glob':
      return `${plural(num(data, 'total') ?? 0, 'file')}${truncatedNote}`;
    case 'Grep':
      return `${plural(num(data, 'total') ?? 0, 'match').replace('matchs', 'matches')}${truncatedNote}`;
    case 'Write': {
      const verb = str(data, 'action') === 'overwritten' ? 'Overwrote' : 'Created';
      return `${verb} · ${plural(num(data, 'lines') ?? 0, 'line')}`;
    }
    case 'Edit':
      return `${plural(num(data, 'replacements') ?? 1, 'replacement')}`;
    case 'MultiEdit':
      return `${plural(num(data, 'edits') ?? 0, 'edit')} · ${plural(num(data, 'replacements') ?? 0, 'replacement')}`;
    case 'Bash':
      return bashSummary(data);
    case 'TodoWrite':
      return str(data, 'recap') ?? 'Todos updated';
    default:
      return firstLine(result.text || result.status, 200);
  }
}

/** The `⎿ …` line under a call. Errors carry their code. Control characters are shown visibly. */
export function summarizeResult(tool: string, result: ToolEnvelope): ResultSummary {
  const summary = rawSummary(tool, result);
  return { ...summary, line: neutralizeControlSequences(summary.line) };
}

function rawSummary(tool: string, result: ToolEnvelope): ResultSummary {
  if (result.status === 'error') {
    const code = result.error?.code ?? 'ERROR';
    const message = result.error?.message ?? firstLine(result.text, 200);
    return { line: `${code}: ${message}`, tone: 'error' };
  }
  const data = fields(result.data);
  if (tool === 'Bash' && typeof data.exit_code === 'number' && data.exit_code !== 0) {
    return { line: bashSummary(data), tone: 'error' };
  }
  const line = successSummary(tool, data, result);
  return { line: result.status === 'partial' ? `${line} (partial)` : line, tone: 'normal' };
}

/** The unified diff to show for Edit/MultiEdit, or a new file's content as added lines for Write. */
export function resultDiff(tool: string, result: ToolEnvelope): string | undefined {
  const diff = rawDiff(tool, result);
  return diff === undefined ? undefined : neutralizeControlSequences(diff);
}

function rawDiff(tool: string, result: ToolEnvelope): string | undefined {
  if (result.status === 'error') return undefined;
  const data = fields(result.data);
  if (tool === 'Edit' || tool === 'MultiEdit') return str(data, 'diff');
  if (tool === 'Write') {
    const content = str(data, 'content');
    if (content === undefined) return undefined;
    return lines(content)
      .map((line) => `+${line}`)
      .join('\n');
  }
  return undefined;
}

export interface OutputTail {
  stdout: string[];
  stderr: string[];
  /** Lines not shown (Ctrl-O shows them). */
  hidden: number;
}

/**
 * The last `count` lines of a Bash run's stdout and stderr for the tail under the call (all of them when `count`
 * is Infinity), control characters shown visibly.
 */
export function bashTail(result: ToolEnvelope, count = 5): OutputTail {
  const data = fields(result.data);
  const stdout = lines(neutralizeControlSequences(str(data, 'stdout') ?? ''));
  const stderr = lines(neutralizeControlSequences(str(data, 'stderr') ?? ''));
  const shownOut = stdout.slice(-count);
  const shownErr = stderr.slice(-count);
  return {
    stdout: shownOut,
    stderr: shownErr,
    hidden: stdout.length - shownOut.length + (stderr.length - shownErr.length),
  };
}

/** A tool's full text output for the verbose transcript (Ctrl-O), control characters shown visibly. */
export function fullOutput(tool: string, result: ToolEnvelope): string {
  if (tool === 'Bash') return '';
  return neutralizeControlSequences(result.text.replace(/\n+$/, ''));
}
