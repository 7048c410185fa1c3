/**
 * One-line summaries of tool calls (`Read(src/a.ts)`) and results (`120 lines`) for the transcript.
 * Inputs and data come from the model and the tools, so every field is read defensively.
 */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import { firstLine, truncate } from './text-width.js';

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {};
}

function str(record: Fields, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

function lines(text: string): string[] {
  const trimmed = text.replace(/\n+$/, '');
  return trimmed ? trimmed.split('\n') : [];
}

/** The argument shown in `Tool(arg)`: the tool's own `display.title` (a path, a pattern, a command), else its JSON input. */
export function callArgument(tool: string, input: unknown): string {
  const title = toolNamed(tool)?.display?.title;
  if (title) return title(fields(input));
  const json = JSON.stringify(input ?? {});
  return json === '{}' ? '' : json;
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

/** The tool's own `display.summary` of a result that did not fail, else the first line of its text. */
function successSummary(tool: string, data: Fields, result: ToolEnvelope): string {
  const summary = toolNamed(tool)?.display?.summary;
  return summary ? summary(data, result) : firstLine(result.text || result.status, 200);
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
  // A command's non-zero exit is a failure even where the status says otherwise (a replayed result).
  if (streams(tool) && typeof data.exit_code === 'number' && data.exit_code !== 0) {
    return { line: successSummary(tool, data, result), tone: 'error' };
  }
  const line = successSummary(tool, data, result);
  return { line: result.status === 'partial' ? `${line} (partial)` : line, tone: 'normal' };
}

/** The diff the tool's `display.diff` shows: an edit's unified diff, or a new file's content as added lines. */
export function resultDiff(tool: string, result: ToolEnvelope): string | undefined {
  const diff = rawDiff(tool, result);
  return diff === undefined ? undefined : neutralizeControlSequences(diff);
}

function rawDiff(tool: string, result: ToolEnvelope): string | undefined {
  if (result.status === 'error') return undefined;
  return toolNamed(tool)?.display?.diff?.(fields(result.data));
}

/** Whether the tool's result is a command's stdout/stderr (shown as their tail, not as text). */
export function streams(tool: string): boolean {
  return toolNamed(tool)?.display?.streams === true;
}

export interface OutputTail {
  stdout: string[];
  stderr: string[];
  /** Lines not shown (Ctrl-O shows them). */
  hidden: number;
}

/**
 * The last `count` lines of a command's stdout and stderr for the tail under the call (all of them when `count`
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
  if (streams(tool)) return '';
  return neutralizeControlSequences(result.text.replace(/\n+$/, ''));
}
