/**
 * What a front end (the CLI, later a headless or ACP server) gives createRuntime: plain values, no flag parser's
 * types. Every field but `cwd` is optional; an absent one means "as the settings and environment say".
 */
import type { PermissionMode, ToolProtocol } from '../config/config.js';
import type { SessionStart } from '../loop/session-manager.js';
import type { CommandHost } from '../tools/processes/command-host.js';
import type { FileAccess } from '../tools/files/file-access.js';
import type { TrustItem } from '../permissions/trust-items.js';

export type { SessionStart } from '../loop/session-manager.js';

/**
 * Asks the person whether to trust this project (the REPL, until answered yes); resolves true for yes, false for
 * "no, for this session" (not recorded: the question comes back next time); a front end that exits on no never resolves false. A front end
 * without a person (print mode) passes none: an untrusted project's allow rules are ignored with one notice.
 */
export type TrustQuestion = (projectRoot: string, widening: readonly TrustItem[]) => Promise<boolean>;

/**
 * Asks about one `.mcp.json` server of a trusted project that nobody approved yet, as Claude Code does: `all`
 * (this one and every later one of this project), `this`, or `skip` (recorded as disabled; `/mcp` enables it).
 */
export type McpApprovalQuestion = (server: TrustItem) => Promise<'all' | 'this' | 'skip'>;

export interface RuntimeOptions {
  /** The project directory (resolved and made real); each runtime has its own, several may live in one process. */
  cwd: string;
  /** Override the configured model / step limit / permission mode / tool protocol. */
  model?: string;
  /** `--fallback-model`: the model a call for the main model moves to when that one is overloaded or not found. */
  fallbackModel?: string;
  maxSteps?: number;
  permissionMode?: PermissionMode;
  toolProtocol?: ToolProtocol;
  /** Extra permission rules, each string possibly holding several rules (`"Bash(npm test:*),Edit"`). */
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  /** MCP servers given by the front end (`--mcp-config`: file paths or inline JSON), and whether only those count. */
  mcpConfigs?: readonly string[];
  strictMcpConfig?: boolean;
  /** `--sandbox` / `--no-sandbox`: the box on or off whatever the settings say (the user's word: it may widen). */
  sandbox?: boolean;
  /** Which settings files' permission rules apply (Claude Code's `--setting-sources`); absent: all. */
  settingSources?: readonly ('user' | 'project' | 'local')[];
  /** Which session to open; a new one when absent. */
  session?: SessionStart;
  askTrust?: TrustQuestion;
  askMcpApproval?: McpApprovalQuestion;
  /** `--agents <json>`: subagent definitions keyed by name (the user's own, so they load in any project). */
  agents?: string;
  /**
   * `--add-dir`: more directories the file tools may read and change (relative to `cwd` unless absolute). One
   * that does not exist or is no directory fails the start (RuntimeError ADD_DIR_INVALID).
   */
  addDirs?: readonly string[];
  /** `--plugin-dir`: Claude Code plugin folders (their commands and skills; plugin-folders.ts). */
  pluginDirs?: readonly string[];
  /** The user's home directory (`~/.claude/agents`, `~/.claude/skills`); default: the OS's. */
  home?: string;
  /** Where Read and the edit tools get and put files' text (an ACP client's buffers); absent: the disk. */
  files?: FileAccess;
  /** Where the model's Bash commands run (an ACP client's terminals); absent: mca spawns them. */
  commands?: CommandHost;
  /**
   * The process serves several runtimes (ACP): the settings files' `env` is kept as this runtime's overlay
   * (`Runtime.environment`) instead of being written into process.env, and the front runs the session's work in
   * `runWithEnvironment(runtime.environment, …)` (src/config/child-environment.ts).
   */
  isolateEnvironment?: boolean;
  /**
   * A person at a terminal may sign in to a remote MCP server from `/mcp` (the REPL). Absent (`-p`, the SDK, ACP):
   * a server that needs sign-in only says to run `mca mcp login <name>`; no browser is ever opened.
   */
  mcpSignInFromSession?: boolean;
}
