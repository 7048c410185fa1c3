/** What an McpManager (mcp-manager.ts) is made with. */
import type { EnvironmentView } from '../config/child-environment.js';
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import type { ServerGate } from './approval.js';
import type { McpLimits, ToolSink } from './limits.js';
import type { ServerConfig } from './server-config.js';
import type { ToolListMemory } from './tool-list-memory.js';

export interface McpManagerOptions {
  servers: ReadonlyArray<{ config: ServerConfig; gate: ServerGate }>;
  projectRoot: string;
  /** Where stored MCP sign-ins live; without it remote servers connect without OAuth. */
  mcaHome?: string;
  registry: ToolSink;
  limits: McpLimits;
  /** The runtime's environment: the processes of stdio servers start with it (absent: process.env with the session's overlay). */
  env?: EnvironmentView;
  /** One line for the person (a server that failed, dropped tools). */
  notice: (line: string) => void;
  /** MCP tool definitions beyond this many tokens are loaded on demand through ToolSearch (deferred-tools.ts). */
  deferBeyondTokens?: number;
  /** Tools are on their way (a list being fetched again): the next model request should wait for `arrival`. */
  expect: (arrival: Promise<unknown>) => void;
  /**
   * Records a project server's enable/disable from `/mcp` (`disabledMcpjsonServers` / `enabledMcpjsonServers` in
   * the project's local settings); returns the file written, throws when it cannot. Without it (or for a server of
   * another scope) the toggle holds for this session only.
   */
  persistEnabled?: (name: string, enabled: boolean) => string;
  /**
   * The sign-in hook (OAuth, issue 26 item 8): signs in to a remote server and stores its tokens; the manager then
   * reconnects it. Absent: `/mcp` tells the user to run `mca mcp login <name>`.
   */
  authenticate?: (name: string, print: (line: string) => void) => Promise<void>;
  /** Remembered tool lists (tool-list-memory.ts): registered at start, so the first request need not wait. */
  memory?: ToolListMemory;
  /** Runs project-scoped stdio servers (`.mcp.json`) in the sandbox while it is on (sandbox.boxProjectCommands). */
  boxProjectCommand?: ProjectCommandBox | undefined;
}
