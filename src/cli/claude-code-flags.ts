/**
 * Claude Code's flags for scripts and the Agent SDK (issue 24 item 2), added to mca's command line. Flags mca
 * implements carry Claude Code's meaning; flags it does not implement are accepted with one warning line when they
 * cannot change what a tool may do (SAFE_UNSUPPORTED), and refused when they could (REFUSED). The grammar
 * (arg-grammar.ts) takes both `--flag value` and `--flag=value`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError, type OptionSpec } from './arg-grammar.js';
import { CliError } from './exit-codes.js';

export const INPUT_FORMATS = ['text', 'stream-json'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export const SETTING_SOURCES = ['user', 'project', 'local'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** What the Claude Code flags asked for (absent: not given). */
export interface ClaudeCodeOptions {
  verbose: boolean;
  /** `--system-prompt` or the text of `--system-prompt-file`: replaces mca's prompt (its tool and safety parts stay). */
  systemPrompt: string | undefined;
  /** `--append-system-prompt` and the text of `--append-system-prompt-file`, in that order. */
  appendSystemPrompt: string | undefined;
  sessionId: string | undefined;
  forkSession: boolean;
  inputFormat: InputFormat;
  includePartialMessages: boolean;
  /** `--json-schema` (the Agent SDK's `outputFormat`): the answer comes through StructuredOutput, checked against it. */
  jsonSchema: Record<string, unknown> | undefined;
  /** `--max-budget-usd`: the session stops before a model request once its cost reached this many dollars. */
  maxBudgetUsd: number | undefined;
  /** `--no-session-persistence`: the session file is removed when the run ends (it cannot be resumed). */
  sessionPersistence: boolean;
  /** `--agent <name>`: the main conversation runs as this subagent definition (its prompt, tools and model). */
  agent: string | undefined;
  /** `--include-hook-events`: stream-json shows each hook run (`hook_started`, `hook_response`). */
  includeHookEvents: boolean;
  /** `--replay-user-messages`: stream-json input's user messages are echoed (with their uuid) on stdout. */
  replayUserMessages: boolean;
  /** `stdio`: ask the SDK host (`can_use_tool`); an MCP tool name otherwise. */
  permissionPromptTool: string | undefined;
  settingSources: SettingSource[] | undefined;
  addDirs: string[];
  /** `--plugin-dir`, resolved against where mca was started. */
  pluginDirs: string[];
  /** `--tools`: the built-in tools to offer (`[]`: none; undefined or `default`: all). */
  tools: string[] | undefined;
  fallbackModel: string | undefined;
  /** `--allow-dangerously-skip-permissions`: the host may switch to bypassPermissions later. */
  allowBypass: boolean;
  /** One line per accepted flag mca does not implement. */
  warnings: string[];
}

/** Flags that cannot change what a tool may do: accepted, one warning each. `true`: the flag takes a value. */
export const SAFE_UNSUPPORTED: Readonly<Record<string, boolean>> = {
  '--debug': false,
  '--debug-to-stderr': false,
  '--debug-file': true,
  '--betas': true,
  '--max-thinking-tokens': true,
  '--effort': true,
  '--thinking-display': true,
  '--task-budget': true,
  '--no-optional-locks': false,
  '--await-initialize': false,
  '--session-mirror': false,
  '--title': true,
};

/** Flags that could widen what tools may do or where settings come from: refused rather than ignored. */
export const REFUSED: Readonly<Record<string, string>> = {
  '--settings': 'it would load settings (permission rules, hooks) mca does not read from a flag',
  '--managed-settings': 'managed settings are not supported',
  '--plugin-dir-no-mcp': 'plugins are not supported',
  '--sdk-url': 'remote session transports are not supported',
  '--ide': 'IDE connections are not supported',
  '--channels': 'channels are not supported',
  '--permission-prompts': 'not supported',
  '--dangerously-load-development-channels': 'not supported',
};

function uuidArgument(value: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
    throw new InvalidArgumentError('must be a UUID');
  }
  return value.toLowerCase();
}

function collect(value: string, previous: unknown): string[] {
  return [...(previous as string[]), value];
}

/** Comma- or space-separated names; `""` means none. */
function nameList(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(/[\s,]+/)).filter((name) => name !== '');
}

/** Claude Code's flags, after mca's own (`defined`): the ones `defined` already has are not added again. */
export function claudeCodeFlagSpecs(defined: readonly OptionSpec[]): OptionSpec[] {
  const specs: OptionSpec[] = [
    {
      flags: '--verbose',
      description: 'with -p --output-format stream-json: every message as it happens (required there)',
    },
    {
      flags: '--max-turns <n>',
      description: 'maximum model replies per turn (same as --max-steps); ends with error_max_turns',
    },
    { flags: '--system-prompt <text>', description: "replace mca's system prompt (its tool and safety parts stay)" },
    { flags: '--system-prompt-file <file>', description: 'like --system-prompt, read from a file' },
    { flags: '--append-system-prompt <text>', description: 'add text at the end of the system prompt' },
    { flags: '--append-system-prompt-file <file>', description: 'like --append-system-prompt, read from a file' },
    { flags: '--session-id <uuid>', description: 'the id of the new session (a UUID)', parse: uuidArgument },
    {
      flags: '--fork-session',
      description: 'with --resume or --continue: continue in a new session id, leaving the old one',
    },
    {
      flags: '--input-format <format>',
      description: 'stdin of -p: text, or stream-json (NDJSON messages)',
      choices: INPUT_FORMATS,
      default: 'text',
    },
    {
      flags: '--include-partial-messages',
      description: 'stream-json: also the streaming events of each reply (stream_event)',
    },
    {
      flags: '--max-budget-usd <usd>',
      description: 'stop before the next model request once the cost reached this (USD)',
    },
    { flags: '--no-session-persistence', description: 'do not keep the session file (it cannot be resumed)' },
    {
      flags: '--agent <name>',
      description: 'run the conversation as this subagent definition (.claude/agents/<name>.md)',
    },
    {
      flags: '--json-schema <schema>',
      description: 'answer as JSON matching this JSON Schema (result.structured_output)',
    },
    {
      flags: '--include-hook-events',
      description: 'stream-json: a hook_started and a hook_response line for each hook run',
    },
    {
      flags: '--replay-user-messages',
      description: 'stream-json input: echo each user message (with its uuid) on stdout',
    },
    {
      flags: '--permission-prompt-tool <tool>',
      description: '"stdio": ask the SDK host (can_use_tool) when a call needs a yes',
    },
    {
      flags: '--setting-sources <sources>',
      description: 'which settings files to read: user,project,local (comma-separated)',
    },
    { flags: '--add-dir <dirs...>', description: 'more directories the tools may use', parse: collect, default: [] },
    { flags: '--plugin-dir <dirs...>', description: 'a Claude Code plugin folder', parse: collect, default: [] },
    {
      flags: '--tools <tools...>',
      description: 'built-in tools to offer: "default" (all), "" (none) or names ("Bash,Read")',
    },
    {
      flags: '--fallback-model <model>',
      description: 'model to use when the main one is overloaded or not found (after retries)',
    },
    {
      flags: '--allow-dangerously-skip-permissions',
      description: 'let the SDK host switch to bypassPermissions later',
    },
  ];
  // mca's own --mcp-config / --strict-mcp-config come first; these stand in only while it has none.
  const has = (long: string): boolean => defined.some((spec) => spec.flags.split(/[ |,]+/).includes(long));
  if (!has('--mcp-config')) {
    specs.push({
      flags: '--mcp-config <configs...>',
      description: 'MCP servers (JSON files or inline JSON)',
      parse: collect,
      default: [],
    });
  }
  if (!has('--strict-mcp-config'))
    specs.push({ flags: '--strict-mcp-config', description: 'only the MCP servers of --mcp-config' });
  // Hidden: no description.
  for (const [flag, takesValue] of Object.entries(SAFE_UNSUPPORTED))
    specs.push({ flags: takesValue ? `${flag} [value]` : flag });
  for (const flag of Object.keys(REFUSED)) specs.push({ flags: `${flag} [value]` });
  return specs;
}

export interface RawClaudeCodeOptions {
  verbose?: boolean;
  maxTurns?: string;
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
  sessionId?: string;
  forkSession?: boolean;
  inputFormat: InputFormat;
  includePartialMessages?: boolean;
  replayUserMessages?: boolean;
  includeHookEvents?: boolean;
  jsonSchema?: string;
  maxBudgetUsd?: string;
  sessionPersistence?: boolean;
  agent?: string;
  permissionPromptTool?: string;
  settingSources?: string;
  addDir: string[];
  pluginDir: string[];
  tools?: string[];
  fallbackModel?: string;
  allowDangerouslySkipPermissions?: boolean;
}

function camel(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function readPromptFile(file: string, flag: string): string {
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${flag}: cannot read ${file}: ${reason}`);
  }
}

function parseSettingSources(value: string | undefined): SettingSource[] | undefined {
  if (value === undefined) return undefined;
  const names = nameList([value]);
  for (const name of names) {
    if (!(SETTING_SOURCES as readonly string[]).includes(name)) {
      throw new CliError(`--setting-sources: unknown source "${name}" (use user, project, local)`);
    }
  }
  return names as SettingSource[];
}

function parseBudget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const budget = Number(value);
  if (value.trim() === '' || !Number.isFinite(budget) || budget <= 0) {
    throw new CliError('--max-budget-usd must be a positive number of dollars');
  }
  return budget;
}

function parseJsonSchema(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new CliError(`--json-schema: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('--json-schema must be a JSON Schema object');
  }
  return parsed as Record<string, unknown>;
}

/** Turns the raw values into ClaudeCodeOptions; throws CliError for a refused flag or a bad value. */
export function claudeCodeOptions(
  values: Readonly<Record<string, unknown>>,
): ClaudeCodeOptions & { maxTurns: number | undefined } {
  const raw = values as RawClaudeCodeOptions & Record<string, unknown>;
  for (const [flag, why] of Object.entries(REFUSED)) {
    if (raw[camel(flag)] !== undefined) throw new CliError(`${flag} is not supported by mca: ${why}`);
  }
  const warnings: string[] = [];
  for (const flag of Object.keys(SAFE_UNSUPPORTED)) {
    const key = flag.startsWith('--no-') ? camel(flag.replace(/^--no-/, '--')) : camel(flag);
    const value = raw[key];
    const given = flag.startsWith('--no-') ? value === false : value !== undefined;
    if (given) warnings.push(`${flag} is not supported by mca and is ignored`);
  }
  let maxTurns: number | undefined;
  if (raw.maxTurns !== undefined) {
    maxTurns = Number(raw.maxTurns);
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new CliError('--max-turns must be a whole number of at least 1');
  }
  if (raw.systemPrompt !== undefined && raw.systemPromptFile !== undefined) {
    throw new CliError('use either --system-prompt or --system-prompt-file, not both');
  }
  const systemPrompt =
    raw.systemPromptFile !== undefined
      ? readPromptFile(raw.systemPromptFile, '--system-prompt-file')
      : raw.systemPrompt;
  const appended = [
    raw.appendSystemPrompt,
    raw.appendSystemPromptFile === undefined
      ? undefined
      : readPromptFile(raw.appendSystemPromptFile, '--append-system-prompt-file'),
  ].filter((part): part is string => part !== undefined && part.trim() !== '');
  const tools =
    raw.tools === undefined || (raw.tools.length === 1 && raw.tools[0] === 'default') ? undefined : nameList(raw.tools);
  return {
    verbose: raw.verbose === true,
    maxTurns,
    systemPrompt,
    appendSystemPrompt: appended.length > 0 ? appended.join('\n\n') : undefined,
    sessionId: raw.sessionId,
    forkSession: raw.forkSession === true,
    inputFormat: raw.inputFormat,
    includePartialMessages: raw.includePartialMessages === true,
    replayUserMessages: raw.replayUserMessages === true,
    includeHookEvents: raw.includeHookEvents === true,
    jsonSchema: parseJsonSchema(raw.jsonSchema),
    maxBudgetUsd: parseBudget(raw.maxBudgetUsd),
    sessionPersistence: raw.sessionPersistence !== false,
    agent: raw.agent,
    permissionPromptTool: raw.permissionPromptTool,
    settingSources: parseSettingSources(raw.settingSources),
    // Relative to where mca was started; `~` forms stay as written for the runtime to expand (workspace-roots.ts).
    addDirs: raw.addDir.map((dir) => (dir === '~' || dir.startsWith('~/') ? dir : resolve(dir))),
    pluginDirs: raw.pluginDir.map((dir) => resolve(dir)),
    tools,
    fallbackModel: raw.fallbackModel,
    allowBypass: raw.allowDangerouslySkipPermissions === true,
    warnings,
  };
}

/** Mixed-flag checks of Claude Code's (its messages, so scripts see what they would see there). */
export function checkClaudeCodeCombination(options: {
  print: boolean;
  outputFormat: string;
  claudeCode: ClaudeCodeOptions;
  resuming: boolean;
}): void {
  const { claudeCode } = options;
  const streamingIn = claudeCode.inputFormat === 'stream-json';
  if (options.print && options.outputFormat === 'stream-json' && !claudeCode.verbose) {
    throw new CliError('When using --print, --output-format=stream-json requires --verbose');
  }
  if (streamingIn && options.outputFormat !== 'stream-json') {
    throw new CliError('--input-format=stream-json requires output-format=stream-json.');
  }
  if (claudeCode.includePartialMessages && options.outputFormat !== 'stream-json') {
    throw new CliError('--include-partial-messages requires --output-format=stream-json');
  }
  if (claudeCode.forkSession && !options.resuming) {
    throw new CliError('--fork-session requires --resume or --continue');
  }
  if (claudeCode.sessionId !== undefined && options.resuming && !claudeCode.forkSession) {
    throw new CliError(
      '--session-id can only be used with --continue or --resume if --fork-session is also specified.',
    );
  }
}
