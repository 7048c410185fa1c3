/** The runtime's MCP plan and what starting it needs (mcp-servers.ts makes the plan; mcp-start.ts starts it). */
import type { EnvironmentView } from '../config/child-environment.js';
import type { Config } from '../config/config.js';
import type { ServerConfig } from '../mcp/server-config.js';
import type { TrustItem } from '../permissions/trust-items.js';
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { McpApprovalQuestion } from './runtime-options.js';

export interface McpPlan {
  servers: ServerConfig[];
  /** Items for the trust question: what each project server would run or reach, and what it would get. */
  widening: TrustItem[];
}

/** What starting the servers needs besides the plan. */
export interface McpStartContext {
  config: Config;
  projectRoot: string;
  trusted: boolean;
  approvedNow: boolean;
  registry: ToolRegistry;
  /** `/mcp` may start a sign-in (a person at a terminal); see RuntimeOptions.mcpSignInFromSession. */
  signInFromSession: boolean;
  /** The runtime's environment: limits (MCP_TIMEOUT, …) and the stdio servers' processes. */
  env: EnvironmentView;
  /** Asks about each project server nobody approved yet (the REPL); without it they stay pending. */
  askApproval?: McpApprovalQuestion | undefined;
  /** Runs project-scoped stdio servers in the sandbox while it is on. */
  boxProjectCommand?: ProjectCommandBox | undefined;
}
