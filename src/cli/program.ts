/**
 * The command line: flags (DESIGN.md "Interfaces others rely on"), validation, and dispatch to print mode or
 * the REPL. Every user error ends here as one line on stderr and exit code 2.
 */
import { PERMISSION_MODES, TOOL_PROTOCOLS } from '../config/config-choices.js';
import { DEFAULT_MODEL } from '../config/model-catalog.js';
import type { PermissionMode, ToolProtocol } from '../config/config-choices.js';
import { defineOption, InvalidArgumentError, parseArgv, suggestSimilar } from './arg-grammar.js';
import type { Option, OptionSpec } from './arg-grammar.js';
import { checkClaudeCodeCombination, claudeCodeFlagSpecs, claudeCodeOptions } from './claude-code-flags.js';
import { CliError, EXIT_AGENT_FAILURE, EXIT_OK, EXIT_USAGE, printError } from './exit-codes.js';
import { formatHelp, helpWidth } from './help-text.js';
import { describeKnownFailure } from './known-failures.js';
import { OUTPUT_FORMATS } from './output-format.js';
import type { OutputFormat } from './output-format.js';
import type { CliOptions } from './cli-options.js';

export type { CliOptions } from './cli-options.js';

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return parsed;
}

function collect(value: string, previous: unknown): string[] {
  return [...(previous as string[]), value];
}

const VERSION_FLAGS = '-v, --version';

/** mca's own flags, in help's order; Claude Code's follow (claude-code-flags.ts). */
const MCA_FLAGS: readonly OptionSpec[] = [
  { flags: '-p, --print', description: 'run once, print the final answer and exit (reads piped stdin too)' },
  { flags: '--acp', description: 'serve the Agent Client Protocol on stdin/stdout, for editors (also: mca acp)' },
  { flags: '--output-format <format>', description: 'output of -p', choices: OUTPUT_FORMATS, default: 'text' },
  { flags: '-c, --continue', description: 'continue the most recent session of this directory' },
  {
    flags: '-r, --resume [session-id]',
    description: 'resume a session by id; without one, pick from a list (interactive only)',
  },
  { flags: '--model <name>', description: `model to use (default: ${DEFAULT_MODEL}, or MCA_MODEL)` },
  { flags: '--max-steps <n>', description: 'maximum agent steps per turn (default 50)', parse: positiveInteger },
  { flags: '--cwd <dir>', description: 'project directory (default: the current directory)' },
  {
    flags: '-w, --worktree [name]',
    description: 'work in a new git worktree (.mca/worktrees/<name>, branch mca/<name>)',
  },
  { flags: '--permission-mode <mode>', description: 'how tool permissions are decided', choices: PERMISSION_MODES },
  {
    flags: '--tool-protocol <protocol>',
    description: 'native tool calls, or the ReAct text protocol (default native)',
    choices: TOOL_PROTOCOLS,
  },
  {
    flags: '--dangerously-skip-permissions',
    description: 'allow every tool without asking (same as --permission-mode bypassPermissions)',
  },
  {
    flags: '--allowedTools, --allowed-tools <rules>',
    description: 'permission rules to allow, e.g. "Bash(npm test:*),Edit" (repeatable)',
    parse: collect,
    default: [],
  },
  {
    flags: '--disallowedTools, --disallowed-tools <rules>',
    description: 'permission rules to deny, e.g. "Bash(git push:*)" (repeatable)',
    parse: collect,
    default: [],
  },
  {
    flags: '--mcp-config <file-or-json>',
    description: 'MCP servers from a JSON file or inline JSON {"mcpServers": {...}} (repeatable)',
    parse: collect,
    default: [],
  },
  {
    flags: '--strict-mcp-config',
    description: 'use only the MCP servers of --mcp-config, none from settings or .mcp.json',
  },
  {
    flags: '--sandbox',
    description: 'run Bash in the sandbox (bubblewrap) whatever the settings say (docs/sandbox.md)',
  },
  { flags: '--no-sandbox', description: 'run Bash outside the sandbox whatever the settings say' },
  {
    flags: '--agents <json>',
    description: 'subagent definitions as JSON, e.g. \'{"reviewer":{"description":"…","prompt":"…"}}\'',
  },
  { flags: VERSION_FLAGS, description: 'print the version' },
];

const HELP_OPTION = defineOption({ flags: '-h, --help', description: 'show this help' });

const HELP_AFTER = [
  '',
  'Examples:',
  '  mca                                   start an interactive session here',
  '  mca -p "why does npm test fail?"      answer once and exit',
  '  git diff | mca -p "review this"       piped input is added to the prompt',
  '  mca -c -p "now add a test"            continue the last session of this directory',
  '  mca trust [dir]                       trust a project: its allow rules and commands take effect',
  '  mca mcp list|get|add|add-json|remove  configure MCP servers (mca mcp --help)',
  '  mca plugin list|install|marketplace   plugins (mca plugin --help)',
  '  mca rewind --list                     checkpoints of the last session here; mca rewind <id> restores one',
  '  mca doctor                            check the installation, the key and the settings (no model call)',
  '  mca --acp                             serve an editor (Zed, JetBrains, Neovim) over the Agent Client Protocol',
  '',
  'Environment: ANTHROPIC_API_KEY (required), ANTHROPIC_BASE_URL, MCA_MODEL, MCA_CONTEXT_WINDOW,',
  '  MCA_COMPRESSION_THRESHOLD, MCA_MIN_RETAIN_ROUNDS, MCA_SUMMARY_TIMEOUT_MS, MCA_MAX_STEPS, MCA_HOME,',
  '  MCA_TOOL_PROTOCOL (native|text). MCP: MCP_TIMEOUT, MCP_TOOL_TIMEOUT (ms), MAX_MCP_OUTPUT_TOKENS.',
  '  Other providers: MCA_PROVIDER=openai with OPENAI_API_KEY and OPENAI_BASE_URL (OpenAI, OpenRouter, Ollama).',
  'Exit codes: 0 ok, 1 agent or API failure, 2 usage or configuration error, 130 interrupted.',
].join('\n');

function programOptions(): Option[] {
  return [...MCA_FLAGS, ...claudeCodeFlagSpecs(MCA_FLAGS)].map(defineOption);
}

function helpText(options: readonly Option[]): string {
  const page = formatHelp({
    usage: 'mca [options] [prompt...]',
    description: 'A terminal coding agent. Run it in a project directory to chat; use -p for scripts.',
    arguments: [['prompt', 'the question or task (with -p: run once and print the answer)']],
    options: [...options, HELP_OPTION],
    width: helpWidth(),
  });
  return `${page}${HELP_AFTER}\n`;
}

interface RawOptions {
  print?: boolean;
  acp?: boolean;
  outputFormat: OutputFormat;
  continue?: boolean;
  resume?: string | true;
  model?: string;
  maxSteps?: number;
  cwd?: string;
  worktree?: string | true;
  permissionMode?: PermissionMode;
  toolProtocol?: ToolProtocol;
  dangerouslySkipPermissions?: boolean;
  allowedTools: string[];
  disallowedTools: string[];
  mcpConfig: string[];
  strictMcpConfig?: boolean;
  sandbox?: boolean;
  agents?: string;
}

/** Reads the line: its values and prompt words, or the exit code once help or the version was printed. */
function readLine(
  args: readonly string[],
  version: string,
): { values: Record<string, unknown>; words: string[] } | { exitCode: number } {
  const options = programOptions();
  let parsed;
  try {
    parsed = parseArgv(options, args, (option) => {
      if (option.flags !== VERSION_FLAGS) return false;
      process.stdout.write(`${version} (mca)\n`);
      return true;
    });
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`${error.message} (see mca --help)`, EXIT_USAGE);
    throw error;
  }
  if (parsed === 'stopped') return { exitCode: EXIT_OK };
  if (parsed.unknown.some((arg) => arg === '-h' || arg === '--help')) {
    process.stdout.write(helpText(options));
    return { exitCode: EXIT_OK };
  }
  const flag = parsed.unknown[0];
  if (flag !== undefined) {
    const longs = [...options, HELP_OPTION].filter((option) => option.description !== undefined && option.long);
    const suggestion = suggestSimilar(
      flag,
      longs.map((option) => option.long as string),
    );
    throw new CliError(`unknown option '${flag}'${suggestion} (see mca --help)`, EXIT_USAGE);
  }
  return { values: parsed.values, words: parsed.operands };
}

/** `version` is what `-v` prints (main.ts reads it from package.json). */
export function parseCliArgs(args: readonly string[], version: string): CliOptions | { exitCode: number } {
  const line = readLine(args, version);
  if ('exitCode' in line) return line;
  const raw = line.values as unknown as RawOptions;
  if (raw.continue && raw.resume) throw new CliError('use either --continue or --resume, not both');
  if (raw.dangerouslySkipPermissions && raw.permissionMode && raw.permissionMode !== 'bypassPermissions') {
    throw new CliError('--dangerously-skip-permissions conflicts with --permission-mode ' + raw.permissionMode);
  }
  const claudeCode = claudeCodeOptions(line.values);
  checkClaudeCodeCombination({
    print: raw.print === true,
    outputFormat: raw.outputFormat,
    claudeCode,
    resuming: raw.continue === true || raw.resume !== undefined,
  });
  const words = line.words;
  const pickSession = raw.resume === true;
  if (pickSession && raw.print) throw new CliError('-p needs a session id after -r (mca -r alone opens a picker)');
  return {
    prompt: words.length > 0 ? words.join(' ') : undefined,
    print: raw.print === true,
    ...(raw.acp === true ? { acp: true } : {}),
    outputFormat: raw.outputFormat,
    claudeCode,
    continueLast: raw.continue === true,
    resume: typeof raw.resume === 'string' ? raw.resume : undefined,
    pickSession,
    model: raw.model,
    maxSteps: claudeCode.maxTurns ?? raw.maxSteps,
    cwd: raw.cwd,
    ...(raw.worktree === undefined ? {} : { worktree: raw.worktree === true ? '' : raw.worktree }),
    permissionMode: raw.dangerouslySkipPermissions ? 'bypassPermissions' : raw.permissionMode,
    toolProtocol: raw.toolProtocol,
    allowedTools: raw.allowedTools,
    disallowedTools: raw.disallowedTools,
    mcpConfigs: raw.mcpConfig,
    strictMcpConfig: raw.strictMcpConfig === true,
    ...(raw.sandbox === undefined ? {} : { sandbox: raw.sandbox }),
    agents: raw.agents,
  };
}

/** Runs the CLI and returns the exit code. Never throws. */
export async function runCli(args: readonly string[], version: string): Promise<number> {
  try {
    if (args[0] === 'mcp') {
      const { runMcpCommand } = await import('./admin/mcp-command.js');
      return await runMcpCommand(args.slice(1));
    }
    if (args[0] === 'plugin' || args[0] === 'plugins') {
      const { runPluginCommand } = await import('./admin/plugin-command.js');
      return await runPluginCommand(args.slice(1));
    }
    if (args[0] === 'trust') {
      const { runTrustCommand } = await import('./admin/trust-command.js');
      return await runTrustCommand(args.slice(1));
    }
    if (args[0] === 'doctor') {
      const { runDoctorCommand } = await import('./admin/doctor-command.js');
      return await runDoctorCommand(args.slice(1));
    }
    if (args[0] === 'rewind') {
      const { runRewindCommand } = await import('./admin/rewind-command.js');
      return await runRewindCommand(args.slice(1));
    }
    const parsed = parseCliArgs(args[0] === 'acp' ? ['--acp', ...args.slice(1)] : args, version);
    if ('exitCode' in parsed) return parsed.exitCode;
    if (parsed.worktree !== undefined) return await inWorktree(parsed, version);
    return await runMode(parsed, version);
  } catch (error) {
    return failed(error);
  }
}

/** `--worktree`: the session runs in its worktree (worktree.ts), which is left (or removed) when it is over. */
async function inWorktree(parsed: CliOptions, version: string): Promise<number> {
  const { enterWorktree, leaveWorktree } = await import('./worktree.js');
  const worktree = await enterWorktree(parsed.cwd ?? process.cwd(), parsed.worktree || undefined);
  const how = worktree.created ? 'created' : 'reused';
  printError(`working in the worktree ${worktree.path} (branch ${worktree.branch}, ${how})`);
  try {
    return await runMode({ ...parsed, cwd: worktree.path }, version);
  } finally {
    printError(await leaveWorktree(worktree));
  }
}

async function runMode(parsed: CliOptions, version: string): Promise<number> {
  try {
    if (parsed.acp) {
      if (parsed.print || parsed.prompt !== undefined) throw new CliError('--acp takes no prompt and no -p');
      const { runAcpMode } = await import('./modes/acp-mode.js');
      return await runAcpMode(parsed, version);
    }
    for (const warning of parsed.claudeCode.warnings) printError(warning);
    if (parsed.claudeCode.inputFormat === 'stream-json') {
      const { runHeadlessMode } = await import('./modes/headless-mode.js');
      return await runHeadlessMode(parsed, version);
    }
    if (parsed.print) {
      const { runPrintMode } = await import('./modes/print-mode.js');
      return await runPrintMode(parsed, version);
    }
    const { runInteractive } = await import('./modes/interactive.js');
    return await runInteractive(parsed);
  } catch (error) {
    return failed(error);
  }
}

/** The exit code of a failure, said on stderr. */
function failed(error: unknown): number {
  if (error instanceof CliError) {
    printError(error.message);
    return error.exitCode;
  }
  const known = describeKnownFailure(error);
  if (known !== undefined) {
    printError(known);
    return EXIT_AGENT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  printError(`internal error: ${message}`);
  return 1;
}
