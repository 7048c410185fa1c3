/**
 * The input schema of every built-in tool, in zod/mini (a few kB and a few ms to load, against classic zod's 750 kB
 * and ~20 ms). Nothing imports this module statically on the start path: the registry loads it to validate a call
 * the zod-free check (input-quick-check.ts) does not accept (input-validation.ts), and the build turns it into the JSON Schemas the `tools` definitions and
 * the text protocol's parameter docs carry (input-json-schemas.ts). Each schema mirrors the classic-zod schema the
 * tool had, so the JSON Schema is byte for byte the same (test/tools/tool-definitions.test.ts) and so are the
 * validation issues the model is told about (input-errors.ts).
 */
import * as z from 'zod/mini';
import {
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
  GLOB_DEFAULT_LIMIT,
  GLOB_MAX_LIMIT,
  LS_DEFAULT_LIMIT,
  LS_MAX_LIMIT,
  MULTI_EDIT_MAX_EDITS,
  PLAN_MAX_CHARS,
  READ_DEFAULT_LIMIT,
  READ_MAX_LIMIT,
  TODO_MAX_ITEMS,
} from './input-limits.js';
import { TODO_STATUSES } from '../registry/tool-data.js';
import { TOOL_REF_PATTERN } from '../memory/tool-memory.js';

/** `schema` with the description the model reads (classic zod's `.describe()`). */
function described<Schema extends z.ZodMiniType>(schema: Schema, text: string): Schema {
  return schema.check(z.describe(text));
}

/** An integer within [min, max] (classic `z.number().int().min().max()`), optionally with a default. */
function integer(min: number, max?: number) {
  const checks = [z.int(), z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)])];
  return z.number().check(...checks);
}

const lsInput = () =>
  z.strictObject({
    path: described(z._default(z.string(), '.'), 'directory, relative to the project root.'),
    offset: described(z._default(integer(0), 0), 'skip this many entries (for paging).'),
    limit: described(z._default(integer(1, LS_MAX_LIMIT), LS_DEFAULT_LIMIT), 'entries to return.'),
    include_hidden: described(
      z._default(z.boolean(), false),
      "also show dotfiles, `.git`, `node_modules` and .gitignore'd entries.",
    ),
    ignore: described(
      z._default(z.array(z.string().check(z.minLength(1))).check(z.maxLength(100)), []),
      'extra gitignore-style patterns to leave out, e.g. `["*.log", "dist/"]`.',
    ),
  });

const globInput = () =>
  z.strictObject({
    pattern: described(
      z.string().check(z.minLength(1)),
      'glob relative to `path`, e.g. `**/*.ts`, `src/**/*.{ts,tsx}`, `**/package.json`. No `..`, no absolute paths.',
    ),
    path: described(z._default(z.string(), '.'), 'directory to search from.'),
    limit: described(z._default(integer(1, GLOB_MAX_LIMIT), GLOB_DEFAULT_LIMIT), 'files to return.'),
  });

const grepInput = () =>
  z.strictObject({
    pattern: described(
      z.string().check(z.minLength(1)),
      'regular expression (ripgrep/JavaScript syntax), matched line by line; escape regex characters for literal text, e.g. `foo\\\\(`.',
    ),
    path: described(z._default(z.string(), '.'), 'file or directory to search.'),
    include: described(
      z.optional(z.string().check(z.minLength(1))),
      'only files matching this glob, e.g. `*.ts` or `*.{ts,tsx}` (matched on the file name; a glob with "/" is matched on the project-relative path).',
    ),
    case_sensitive: z._default(z.boolean(), false),
  });

const readInput = () =>
  z.strictObject({
    path: described(z.string(), 'file relative to the project root.'),
    start_line: described(z._default(integer(1), 1), 'first line to show.'),
    limit: described(z._default(integer(1, READ_MAX_LIMIT), READ_DEFAULT_LIMIT), 'number of lines.'),
  });

const writeInput = () =>
  z.strictObject({
    path: described(z.string(), 'file relative to the project root; missing parent directories are created.'),
    content: described(z.string(), 'the complete new content.'),
  });

const editInput = () =>
  z.strictObject({
    path: described(z.string(), 'file relative to the project root.'),
    old_string: described(
      z.string(),
      "text copied exactly from the file (indentation included, without Read's line-number prefix). It must occur exactly once: include enough surrounding lines to make it unique.",
    ),
    new_string: described(z.string(), 'the replacement; must differ from `old_string`.'),
    replace_all: described(
      z._default(z.boolean(), false),
      'replace every occurrence instead (e.g. renaming a variable).',
    ),
  });

const multiEditInput = () =>
  z.strictObject({
    path: described(z.string(), 'file relative to the project root.'),
    edits: described(
      z
        .array(
          z.strictObject({
            old_string: z.string(),
            new_string: z.string(),
            replace_all: z._default(z.boolean(), false),
          }),
        )
        .check(z.minLength(1), z.maxLength(MULTI_EDIT_MAX_EDITS)),
      '`{"old_string": string, "new_string": string, "replace_all": boolean (default false)}`. Applied in order, each to the result of the previous one, so later `old_string`s must match the text after earlier edits.',
    ),
  });

const bashInput = () =>
  z.strictObject({
    command: described(z.string().check(z.minLength(1)), 'the command line; chain with `&&`. Quote paths with spaces.'),
    timeout_ms: z._default(integer(100, BASH_MAX_TIMEOUT_MS), BASH_DEFAULT_TIMEOUT_MS),
    dangerouslyDisableSandbox: described(
      z.optional(z.boolean()),
      'only when a sandbox is on and blocked something the command needs: run it outside (always asks the user).',
    ),
    run_in_background: z.optional(
      described(
        z.boolean(),
        'run it in the background and return at once with a task id (dev servers, watchers, long builds).',
      ),
    ),
  });

/** TaskOutput (older name BashOutput, whose `bash_id` and `filter` it accepts). */
const taskOutputInput = () =>
  z.strictObject({
    task_id: z.optional(described(z.string().check(z.minLength(1)), 'the background task id, e.g. `bash_1`.')),
    bash_id: z.optional(z.string().check(z.minLength(1))),
    block: z.optional(described(z.boolean(), 'wait for the task to end (default true).')),
    timeout: z.optional(described(integer(0, BASH_MAX_TIMEOUT_MS), 'ms to wait when blocking (default 30000).')),
    filter: z.optional(z.string()),
  });

/** TaskStop (older names KillShell, KillBash, whose `shell_id` it accepts). */
const taskStopInput = () =>
  z.strictObject({
    task_id: z.optional(described(z.string().check(z.minLength(1)), 'the background task id to stop.')),
    shell_id: z.optional(z.string().check(z.minLength(1))),
  });

const todoWriteInput = () =>
  z.strictObject({
    todos: described(
      z
        .array(
          z.strictObject({
            content: z.string().check(z.trim(), z.minLength(1, 'content must not be empty')),
            status: z.enum(TODO_STATUSES),
          }),
        )
        .check(z.maxLength(TODO_MAX_ITEMS)),
      '`{"content": string (non-empty), "status": "pending" | "in_progress" | "completed" | "cancelled"}`. At most one item may be in_progress.',
    ),
  });

const recallInput = () =>
  z.strictObject({
    ref: described(
      z.string().check(z.regex(TOOL_REF_PATTERN, 'a reference looks like r0123456789ab')),
      'the reference, e.g. `r0123456789ab`.',
    ),
    start_line: described(z._default(integer(1), 1), 'first line to show.'),
    limit: described(z._default(integer(1, READ_MAX_LIMIT), READ_DEFAULT_LIMIT), 'number of lines.'),
  });

const exitPlanModeInput = () =>
  z.strictObject({
    plan: described(
      z.string().check(z.trim(), z.minLength(1, 'plan must not be empty'), z.maxLength(PLAN_MAX_CHARS)),
      'the plan in Markdown: what you will change, in which files, in which order, and how you will check it.',
    ),
  });

/**
 * How to build each built-in tool's input schema, by tool name. A schema is built on its tool's first call
 * (builtinInputSchema): building all eleven costs ~5 ms, one ~0.5 ms.
 */
const builders = {
  LS: lsInput,
  Glob: globInput,
  Grep: grepInput,
  Read: readInput,
  Write: writeInput,
  Edit: editInput,
  MultiEdit: multiEditInput,
  Bash: bashInput,
  TaskOutput: taskOutputInput,
  TaskStop: taskStopInput,
  TodoWrite: todoWriteInput,
  Recall: recallInput,
  ExitPlanMode: exitPlanModeInput,
} as const;

export type BuiltinToolName = keyof typeof builders;
export type BuiltinInputSchemas = { readonly [Name in BuiltinToolName]: ReturnType<(typeof builders)[Name]> };

const built: { -readonly [Name in BuiltinToolName]?: BuiltinInputSchemas[Name] } = {};

/** The input schema of one built-in tool, built once. */
export function builtinInputSchema<Name extends BuiltinToolName>(name: Name): BuiltinInputSchemas[Name] {
  const schema = (built[name] ??= builders[name]() as BuiltinInputSchemas[Name]);
  return schema as BuiltinInputSchemas[Name];
}

/** Every built-in tool's input schema by tool name, in the registry's order (the build describes them all). */
export function allBuiltinInputSchemas(): BuiltinInputSchemas {
  const all = Object.fromEntries(
    (Object.keys(builders) as BuiltinToolName[]).map((name) => [name, builtinInputSchema(name)]),
  );
  return all as unknown as BuiltinInputSchemas;
}
