/**
 * The one translation between mca's tool inputs and Claude Code's (DESIGN.md "Claude Code compatibility"), in both
 * directions. Hooks, the SDK protocol, stream-json and permission rules show a call the way Claude Code would send
 * it, and what comes back in Claude Code's names (a hook's `updatedInput`, an SDK `can_use_tool` answer) is turned
 * into mca's input before it is validated like any other.
 *
 * Contract:
 * - `toClaudeCodeInput` never fails: an input of an unknown tool, or not an object, passes through unchanged.
 *   File paths become absolute (resolved against the project root); mca-only fields appear only when they differ
 *   from their default, so a strict parser of Claude Code's shapes sees nothing it does not know in the usual case.
 * - `fromClaudeCodeInput` is its inverse for inputs in Claude Code's names: absolute paths inside the project
 *   become project-relative (a path outside stays absolute, so the tool's workspace guard refuses it as always),
 *   Claude Code-only fields mca cannot honour are dropped, and mca's own names are accepted too (a hook that edits
 *   the input it was given and sends it back, or one written for mca).
 * Tool names are the same in both (MCP tools are `mcp__<server>__<tool>` in both), so only inputs are mapped.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

type Input = Record<string, unknown>;

/** mca's defaults for fields Claude Code does not have (input-limits.ts holds the same numbers). */
const LS_DEFAULTS: Input = { offset: 0, limit: 100, include_hidden: false };
const GLOB_DEFAULT_LIMIT = 50;

function isObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absolute(path: unknown, projectRoot: string): unknown {
  return typeof path === 'string' && path !== '' ? resolve(projectRoot, path) : path;
}

/** A path inside the project as project-relative ("." for the root); anything else unchanged. */
function projectRelative(path: unknown, projectRoot: string): unknown {
  if (typeof path !== 'string' || !isAbsolute(path)) return path;
  const rel = relative(projectRoot, path);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

/** `input` without the keys listed (undefined values dropped too). */
function without(input: Input, keys: readonly string[]): Input {
  const out: Input = {};
  for (const [key, value] of Object.entries(input)) if (!keys.includes(key) && value !== undefined) out[key] = value;
  return out;
}

/** Keeps only the keys listed, in that order, dropping undefined values. */
function pick(input: Input, keys: readonly string[]): Input {
  const out: Input = {};
  for (const key of keys) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

type Mapper = (input: Input, projectRoot: string) => Input;

function filePathOut(input: Input, projectRoot: string): Input {
  return { file_path: absolute(input.path, projectRoot), ...without(input, ['path']) };
}

function filePathIn(input: Input, projectRoot: string): Input {
  const path = input.file_path ?? input.path;
  return { path: projectRelative(path, projectRoot), ...without(input, ['file_path', 'path']) };
}

const TO_CLAUDE_CODE: Readonly<Record<string, Mapper>> = {
  Read: (input, root) => ({
    file_path: absolute(input.path, root),
    ...pick({ offset: input.start_line, limit: input.limit }, ['offset', 'limit']),
  }),
  Write: filePathOut,
  Edit: filePathOut,
  MultiEdit: filePathOut,
  Grep: (input, root) => ({
    pattern: input.pattern,
    ...(input.path === undefined ? {} : { path: absolute(input.path, root) }),
    ...(input.include === undefined ? {} : { glob: input.include }),
    '-i': input.case_sensitive !== true,
  }),
  Glob: (input, root) => ({
    pattern: input.pattern,
    ...(input.path === undefined ? {} : { path: absolute(input.path, root) }),
    ...(input.limit === undefined || input.limit === GLOB_DEFAULT_LIMIT ? {} : { limit: input.limit }),
  }),
  LS: (input, root) => {
    const extra: Input = {};
    for (const [key, fallback] of Object.entries(LS_DEFAULTS))
      if (input[key] !== undefined && input[key] !== fallback) extra[key] = input[key];
    const ignore = Array.isArray(input.ignore) && input.ignore.length > 0 ? { ignore: input.ignore } : {};
    return { path: absolute(input.path ?? '.', root), ...ignore, ...extra };
  },
  Bash: (input) => ({
    command: input.command,
    ...(input.timeout_ms === undefined ? {} : { timeout: input.timeout_ms }),
    ...(input.dangerouslyDisableSandbox === undefined
      ? {}
      : { dangerouslyDisableSandbox: input.dangerouslyDisableSandbox }),
    ...(input.run_in_background === true ? { run_in_background: true } : {}),
  }),
};

/** Claude Code fields mca has no use for, dropped on the way in (mca's schemas are strict). */
const GREP_CLAUDE_ONLY = [
  'output_mode',
  '-n',
  '-A',
  '-B',
  '-C',
  'context',
  'head_limit',
  'offset',
  'type',
  'multiline',
];

const FROM_CLAUDE_CODE: Readonly<Record<string, Mapper>> = {
  Read: (input, root) => {
    const offset = typeof input.offset === 'number' ? Math.max(1, input.offset) : input.start_line;
    return {
      path: projectRelative(input.file_path ?? input.path, root),
      ...pick({ start_line: offset, limit: input.limit }, ['start_line', 'limit']),
    };
  },
  Write: (input, root) => pick(filePathIn(input, root), ['path', 'content']),
  Edit: (input, root) => pick(filePathIn(input, root), ['path', 'old_string', 'new_string', 'replace_all']),
  MultiEdit: (input, root) => pick(filePathIn(input, root), ['path', 'edits']),
  Grep: (input, root) => {
    const rest = without(input, [...GREP_CLAUDE_ONLY, 'glob', '-i', 'path', 'include', 'case_sensitive']);
    // Claude Code's Grep is case-sensitive unless `-i` is true; mca's `case_sensitive` is taken when given.
    const caseSensitive = typeof input['-i'] === 'boolean' ? !input['-i'] : (input.case_sensitive ?? true);
    return {
      ...rest,
      ...(input.path === undefined ? {} : { path: projectRelative(input.path, root) }),
      ...((input.glob ?? input.include) === undefined ? {} : { include: input.glob ?? input.include }),
      case_sensitive: caseSensitive,
    };
  },
  Glob: (input, root) => ({
    ...pick(input, ['pattern', 'limit']),
    ...(input.path === undefined ? {} : { path: projectRelative(input.path, root) }),
  }),
  LS: (input, root) => ({
    ...pick(input, ['offset', 'limit', 'include_hidden', 'ignore']),
    ...(input.path === undefined ? {} : { path: projectRelative(input.path, root) }),
  }),
  Bash: (input) => {
    const timeout = input.timeout ?? input.timeout_ms;
    const unboxed = input.dangerouslyDisableSandbox;
    return {
      command: input.command,
      ...(timeout === undefined ? {} : { timeout_ms: timeout }),
      ...(unboxed === undefined ? {} : { dangerouslyDisableSandbox: unboxed }),
      ...(input.run_in_background === true ? { run_in_background: true } : {}),
    };
  },
  // The older names' ids (BashOutput's bash_id, KillShell's shell_id) are accepted by the tools themselves.
  TaskOutput: (input) => pick(input, ['task_id', 'bash_id', 'block', 'timeout', 'filter']),
  TaskStop: (input) => pick(input, ['task_id', 'shell_id']),
  TodoWrite: (input) => ({
    todos: Array.isArray(input.todos)
      ? input.todos.map((todo: unknown) => (isObject(todo) ? pick(todo, ['content', 'status']) : todo))
      : input.todos,
  }),
};

/** mca's input of `toolName` in Claude Code's names (see the contract above). */
export function toClaudeCodeInput(toolName: string, input: unknown, projectRoot: string): unknown {
  const map = TO_CLAUDE_CODE[toolName];
  return map && isObject(input) ? map(input, projectRoot) : input;
}

/** An input in Claude Code's names (or mca's) as mca's input of `toolName`; still to be validated by the tool. */
export function fromClaudeCodeInput(toolName: string, input: unknown, projectRoot: string): unknown {
  const map = FROM_CLAUDE_CODE[toolName];
  return map && isObject(input) ? map(input, projectRoot) : input;
}
