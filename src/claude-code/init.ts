/** The first stream-json line of a session (`system`/`init`): what the host is talking to. */
import { randomUUID } from 'node:crypto';
import type { PermissionMode } from '../config/config-choices.js';
import type { CcInitMessage } from './types.js';

export interface InitInfo {
  cwd: string;
  sessionId: string;
  tools: readonly string[];
  mcpServers?: ReadonlyArray<{ name: string; status: string; source?: string }>;
  model: string;
  permissionMode: PermissionMode;
  slashCommands?: readonly string[];
  agents?: readonly string[];
  skills?: readonly string[];
  /** The plugins loaded (Claude Code lists each with its folder and `<name>@<marketplace>` id). */
  plugins?: ReadonlyArray<{ name: string; path: string; source: string; version?: string }>;
  /** The output style in effect (settings `outputStyle` as written); Claude Code's `default` when none. */
  outputStyle?: string;
  /** Whether an API key came from the environment. */
  apiKeyFromEnv: boolean;
  /** mca's own version (the field is named for Claude Code's). */
  version: string;
}

export function initMessage(info: InitInfo): CcInitMessage {
  return {
    type: 'system',
    subtype: 'init',
    cwd: info.cwd,
    session_id: info.sessionId,
    tools: [...info.tools],
    mcp_servers: [...(info.mcpServers ?? [])],
    model: info.model,
    permissionMode: info.permissionMode,
    slash_commands: [...(info.slashCommands ?? [])],
    apiKeySource: info.apiKeyFromEnv ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: info.version,
    output_style: info.outputStyle ?? 'default',
    agents: [...(info.agents ?? [])],
    skills: [...(info.skills ?? [])],
    plugins: [...(info.plugins ?? [])],
    uuid: randomUUID(),
  };
}
