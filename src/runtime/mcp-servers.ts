/**
 * The runtime's MCP part: reads every configuration scope, adds each project server's command line to the trust
 * question, decides which servers start (approval.ts), and starts them in the background. The client library and
 * the manager load only when at least one server is to start; a runtime without servers pays one small config read.
 */
import { positiveNumber } from '../config/env-number.js';
import type { Config } from '../config/config.js';
import { loadMcpConfig } from '../mcp/config-sources.js';
import type { McpManager, McpLimits } from '../mcp/mcp-manager.js';
import { sessionEnvironment } from '../config/child-environment.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../mcp/result-limits.js';
import type { RuntimeOptions } from './runtime-options.js';

/** Claude Code's names; mca's defaults: 30 s to connect, 10 minutes per call. */
export function mcpLimits(env: NodeJS.ProcessEnv = sessionEnvironment()): McpLimits {
  return {
    connectTimeoutMs: positiveNumber(env.MCP_TIMEOUT, 30_000),
    toolTimeoutMs: positiveNumber(env.MCP_TOOL_TIMEOUT, 600_000),
    maxOutputTokens: positiveNumber(env.MAX_MCP_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS),
  };
}

export async function planMcp(
  options: RuntimeOptions,
  config: Pick<Config, 'mcaHome'>,
  projectRoot: string,
  notices: string[],
): Promise<McpPlan> {
  const loaded = loadMcpConfig({
    projectRoot,
    mcaHome: config.mcaHome,
    cwd: options.cwd,
    ...(options.mcpConfigs ? { mcpConfigs: options.mcpConfigs } : {}),
    ...(options.strictMcpConfig ? { strict: true } : {}),
  });
  notices.push(...loaded.notices);
  const project = loaded.servers.filter((server) => server.scope === 'project');
  if (project.length === 0) return { servers: loaded.servers, widening: [] };
  // How a project server is shown in the trust question: loaded only for a project that has one.
  const { serverTrustItem } = await import('../mcp/server-exposure.js');
  return { servers: loaded.servers, widening: project.map((server) => serverTrustItem(server, projectRoot)) };
}

import type { McpPlan, McpStartContext } from './mcp-plan.js';

export type { McpPlan, McpStartContext } from './mcp-plan.js';

export interface StartedMcp {
  manager: McpManager;
}

/**
 * Decides which servers start and starts them in the background (mcp-start.ts, loaded only when a server is
 * configured); undefined without servers.
 */
export async function startMcp(
  plan: McpPlan,
  context: McpStartContext,
  notices: string[],
): Promise<McpManager | undefined> {
  if (plan.servers.length === 0) return undefined;
  const { startServers } = await import('./mcp-start.js');
  return await startServers(plan, context, notices, mcpLimits(context.env));
}
