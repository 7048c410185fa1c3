/**
 * A finished tool call's result in Claude Code's shape (`tool_response` of a PostToolUse hook, later the SDK's
 * hooks): the fields Claude Code's own tools report, with absolute file paths. A tool Claude Code does not have,
 * or a result whose data is not the expected shape, is given as its envelope's `data` (or its text when it has no
 * data). Never throws. Failed calls are reported by their error message instead (PostToolUseFailure `error`).
 */
import { resolve } from 'node:path';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

type Data = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** Read's numbered lines (`<n>\t<text>`) without the numbers: the file's text, as Claude Code reports it. */
function unnumbered(content: string): string {
  return content
    .split('\n')
    .map((line) => line.replace(/^\s*\d+\t/, ''))
    .join('\n');
}

type Shaper = (data: Data, input: Data, root: string) => Data;

const SHAPERS: Readonly<Record<string, Shaper>> = {
  Bash: (data) => ({
    stdout: str(data.stdout),
    stderr: str(data.stderr),
    interrupted: data.interrupted === true || data.timed_out === true,
    isImage: false,
  }),
  Read: (data, _input, root) => ({
    type: 'text',
    file: {
      filePath: resolve(root, str(data.path)),
      content: unnumbered(str(data.content)),
      numLines: data.end_line === undefined ? 0 : Math.max(0, num(data.end_line) - num(data.start_line) + 1),
      startLine: num(data.start_line),
      totalLines: num(data.total_lines),
    },
  }),
  Write: (data, input, root) => ({
    type: data.action === 'created' ? 'create' : 'update',
    filePath: resolve(root, str(data.path)),
    content: str(input.content),
  }),
  Edit: (data, input, root) => ({
    filePath: resolve(root, str(data.path)),
    oldString: str(input.old_string),
    newString: str(input.new_string),
    replaceAll: input.replace_all === true,
  }),
  MultiEdit: (data, input, root) => ({
    filePath: resolve(root, str(data.path)),
    edits: Array.isArray(input.edits) ? input.edits : [],
  }),
  Glob: (data, _input, root) => {
    const files = Array.isArray(data.files) ? data.files.map((file) => resolve(root, str(file))) : [];
    return { filenames: files, numFiles: num(data.total), truncated: data.truncated === true };
  },
  Grep: (data, _input, root) => {
    const matches = Array.isArray(data.matches) ? (data.matches as Data[]) : [];
    const files = [...new Set(matches.map((match) => resolve(root, str(match.file))))];
    return {
      mode: 'content',
      filenames: files,
      numFiles: files.length,
      content: matches.map((match) => `${str(match.file)}:${num(match.line)}:${str(match.text)}`).join('\n'),
      numLines: matches.length,
    };
  },
};

function isObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `envelope` (a call of `toolName` with mca's `input`) as Claude Code's `tool_response`. */
export function toClaudeCodeResponse(toolName: string, input: unknown, envelope: ToolEnvelope, root: string): unknown {
  const shape = SHAPERS[toolName];
  const data = isObject(envelope.data) ? envelope.data : {};
  if (shape && Object.keys(data).length > 0) return shape(data, isObject(input) ? input : {}, root);
  return Object.keys(data).length > 0 ? data : envelope.text;
}
