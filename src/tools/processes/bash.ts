import { builtinInput } from '../input/builtin-input.js';
import { approvalTitle } from '../registry/approval.js';
import { defineTool, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import { loadToolCode } from '../registry/tool-code-loader.js';
import { clip, clipStart, isFiniteNumber, isString } from '../../text/json-guards.js';
import type { JsonRecord, ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  displayLines,
  linesOf,
  numberField,
  plural,
  stringField,
} from '../registry/result-forms.js';

/** Paths a shell command deletes (`rm`, `git rm`, `unlink`), read from its words; flags are skipped. */
function deletedByCommand(command: string): string[] {
  const paths: string[] = [];
  for (const clause of command.split(/&&|\|\||;|\n/)) {
    const words = clause.trim().split(/\s+/);
    const start = words[0] === 'git' && words[1] === 'rm' ? 2 : words[0] === 'rm' || words[0] === 'unlink' ? 1 : -1;
    if (start < 0) continue;
    for (const word of words.slice(start)) if (word !== '' && !word.startsWith('-')) paths.push(word);
  }
  return paths;
}

/** `exit 0 · 3 stdout lines`: how a command ended and how much it wrote. */
function bashSummary(data: JsonRecord): string {
  const task = stringField(data, 'background_task_id');
  if (task !== undefined) return `running in the background as ${task}`;
  const exit = data.exit_code;
  // A replayed (compressed) result counts its lines in stdout_lines; its stdout is only the head.
  const stdoutLines = numberField(data, 'stdout_lines') ?? displayLines(stringField(data, 'stdout') ?? '').length;
  const stderrLines = displayLines(stringField(data, 'stderr') ?? '').length;
  const head =
    data.timed_out === true ? 'timed out' : data.interrupted === true ? 'interrupted' : `exit ${String(exit)}`;
  const parts = [head];
  if (stdoutLines > 0) parts.push(plural(stdoutLines, 'stdout line'));
  if (stderrLines > 0) parts.push(plural(stderrLines, 'stderr line'));
  if (stdoutLines === 0 && stderrLines === 0) parts.push('no output');
  const sandbox = stringField(data, 'sandbox');
  if (sandbox !== undefined) parts.push(sandbox);
  return parts.join(' · ');
}

/**
 * What history, the ledger and the transcript make of a Bash result (DESIGN.md "ToolResultCompressor": command,
 * exit code, stdout line count and first 200 characters, last 20 stderr lines).
 */
const bashMembers: ToolMembers = {
  compress: (data) => {
    const { command, exit_code, stdout, stderr } = data;
    const exitOk = exit_code === null || isFiniteNumber(exit_code);
    if (!isString(command) || !exitOk || !isString(stdout) || !isString(stderr)) return undefined;
    const stderrLines = linesOf(stderr);
    const result: JsonRecord = { command: clip(command, LIMIT.bashCommandChars), exit_code };
    if (isString(data.signal)) result.signal = data.signal;
    result.stdout_lines = linesOf(stdout).length;
    result.stdout_head = clip(stdout, LIMIT.bashStdoutChars);
    const tail = stderrLines.slice(-LIMIT.bashStderrLines);
    result.stderr_tail = clipStart(tail.join('\n'), LIMIT.bashStderrChars);
    if (stderrLines.length > tail.length) result.stderr_lines_cut = stderrLines.length - tail.length;
    if (data.stdout_truncated === true) result.stdout_truncated = true;
    if (data.stderr_truncated === true) result.stderr_truncated = true;
    return result;
  },
  shrink: (data) =>
    isString(data.command)
      ? `$ ${clip(data.command, 80)} -> exit ${data.exit_code === null ? 'none' : count(data.exit_code)}`
      : undefined,
  command: (input) => stringField(input, 'command'),
  locations: (input) =>
    isString(input.command) ? deletedByCommand(input.command).map((path) => ({ path, kind: 'deleted' as const })) : [],
  display: {
    title: (input) => (stringField(input, 'command') ?? '').replace(/\s*\n\s*/g, ' ⏎ '),
    summary: bashSummary,
    streams: true,
    // The compressed result keeps the head of stdout and the tail of stderr: the transcript shows what was kept.
    replay: (data) => {
      const text = (key: string): string => stringField(data, key) ?? '';
      return { ...data, stdout: text('stdout') || text('stdout_head'), stderr: text('stderr') || text('stderr_tail') };
    },
  },
};

export const bashTool = defineTool({
  name: 'Bash',
  promptFile: 'Bash.md',
  inputSchema: builtinInput('Bash'),
  permission: 'exec',
  kind: 'execute',
  ...bashMembers,
  preload: loadToolCode,
  prepare(input, ctx): Promise<ToolPlan> {
    const place = ctx.box?.place(input, ctx.source);
    const request = {
      tool: 'Bash',
      title: approvalTitle('Bash', input.command),
      detail: place?.outside === undefined ? input.command : `${place.outside}\n\n${input.command}`,
      input,
      ...(place?.verdict === undefined ? {} : { sandbox: place.verdict }),
    };
    return Promise.resolve(readyPlan(request, async () => (await loadToolCode()).runCommand(input, ctx)));
  },
});
