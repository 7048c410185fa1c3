/**
 * The parsed command line (program.ts builds it). Its own file so the modes (print, REPL) and bootstrap can take
 * it without importing the program that imports them.
 */
import type { PermissionMode, ToolProtocol } from '../config/config-choices.js';
import type { ClaudeCodeOptions } from './claude-code-flags.js';
import type { OutputFormat } from './output-format.js';

export interface CliOptions {
  prompt: string | undefined;
  print: boolean;
  /** `--acp` / `mca acp`: serve the Agent Client Protocol on stdin/stdout (src/acp). */
  acp?: boolean;
  outputFormat: OutputFormat;
  /** Claude Code's flags for scripts and the Agent SDK (claude-code-flags.ts). */
  claudeCode: ClaudeCodeOptions;
  continueLast: boolean;
  resume: string | undefined;
  /** `-r` without an id (REPL only): open the session picker. */
  pickSession: boolean;
  model: string | undefined;
  maxSteps: number | undefined;
  cwd: string | undefined;
  /** `--worktree [name]`: run in a new git worktree ('' when no name was given). */
  worktree?: string | undefined;
  permissionMode: PermissionMode | undefined;
  toolProtocol: ToolProtocol | undefined;
  /** `--allowedTools` / `--disallowedTools` values as given (each may hold several rules). */
  allowedTools: string[];
  disallowedTools: string[];
  /** `--mcp-config` values as given (a file path or inline JSON each); `--strict-mcp-config`. */
  mcpConfigs: string[];
  strictMcpConfig: boolean;
  /** `--sandbox` (true) / `--no-sandbox` (false); absent: as the settings say. */
  sandbox?: boolean;
  /** `--agents <json>`: subagent definitions. */
  agents?: string | undefined;
}
