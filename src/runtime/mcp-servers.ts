/**
 * The runtime's MCP part: reads every configuration scope, adds each project server's command line to the trust
 * question, decides which servers start (approval.ts), and starts them in the background. The client library and
 * the manager load only when at least one server is to start; a runtime without servers pays one small config read.
 */
import type { Config } from '../config/config.js';
import { gateOf, readApprovals, type ServerGate } from '../mcp/approval.js';
import { recordProjectApproval } from '../mcp/approval-store.js';
import { loadMcpConfig } from '../mcp/config-sources.js';
import type { McpManager, McpLimits } from '../mcp/mcp-manager.js';
import { sessionEnvironment } from '../config/child-environment.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../mcp/result-envelope.js';
import { describeServer, type ServerConfig } from '../mcp/server-config.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { RuntimeOptions } from './runtime-options.js';

/** Claude Code's names; mca's defaults: 30 s to connect, 10 minutes per call. */
export function mcpLimits(env: NodeJS.ProcessEnv = sessionEnvironment()): McpLimits {
  const positive = (value: string | undefined, fallback: number): number => {
    const parsed = Number(value);
    return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
  };
  return {
    connectTimeoutMs: positive(env.MCP_TIMEOUT, 30_000),
    toolTimeoutMs: positive(env.MCP_TOOL_TIMEOUT, 600_000),
    maxOutputTokens: positive(env.MAX_MCP_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS),
  };
}

export interface McpPlan {
  servers: ServerConfig[];
  /** Lines for the trust question: what each project server would run. */
  widening: string[];
}

export function planMcp(
  options: RuntimeOptions,
  config: Pick<Config, 'mcaHome'>,
  projectRoot: string,
  notices: string[],
): McpPlan {
  const loaded = loadMcpConfig({
    projectRoot,
    mcaHome: config.mcaHome,
    cwd: options.cwd,
    ...(options.mcpConfigs ? { mcpConfigs: options.mcpConfigs } : {}),
    ...(options.strictMcpConfig ? { strict: true } : {}),
  });
  notices.push(...loaded.notices);
  const widening = loaded.servers
    .filter((server) => server.scope === 'project')
    .map((server) => `MCP server "${server.name}" runs: ${describeServer(server)} (.mcp.json)`);
  return { servers: loaded.servers, widening };
}

export interface StartedMcp {
  manager: McpManager;
}

/**
 * Starts the servers that may start; lists the others in one notice each. `approvedNow`: the person trusted the
 * project at a question that listed its servers, which approves them (recorded for later sessions).
 */
export async function startMcp(
  plan: McpPlan,
  context: { config: Config; projectRoot: string; trusted: boolean; approvedNow: boolean; registry: ToolRegistry },
  notices: string[],
): Promise<McpManager | undefined> {
  if (plan.servers.length === 0) return undefined;
  const { config, projectRoot, trusted, registry } = context;
  const projectNames = plan.servers.filter((server) => server.scope === 'project').map((server) => server.name);
  if (context.approvedNow && trusted && projectNames.length > 0) {
    const failure = recordProjectApproval(config.mcaHome, projectRoot, projectNames);
    if (failure) notices.push(failure);
  }
  const approvals = readApprovals({ projectRoot, mcaHome: config.mcaHome, trusted }, notices);
  if (context.approvedNow && trusted) for (const name of projectNames) approvals.enabled.add(name);
  const servers = plan.servers.map((server) => ({ config: server, gate: gateOf(server, trusted, approvals) }));
  for (const { config: server, gate } of servers) {
    if (gate !== 'start') notices.push(`MCP server "${server.name}" not started: ${pendingReason(gate)}`);
  }
  const { McpManager } = await import('../mcp/mcp-manager.js');
  const limits = mcpLimits();
  const manager = new McpManager({
    servers,
    projectRoot,
    mcaHome: config.mcaHome,
    registry,
    limits,
    notice: (line) => registry.notice(line),
    expect: (arrival) => registry.expectTools(arrival),
    // Past 10% of the window in MCP tool definitions, the rest load on demand (ToolSearch).
    deferBeyondTokens: Math.floor(config.contextWindow * 0.1),
  });
  if (servers.some((server) => server.gate === 'start')) {
    void manager.start();
    registry.expectTools(manager.ready(limits.connectTimeoutMs));
  }
  return manager;
}

function pendingReason(gate: ServerGate): string {
  if (gate === 'untrusted') return 'this project is not trusted (run `mca trust` after reading its .mcp.json)';
  if (gate === 'disabled') return 'it is in disabledMcpjsonServers';
  return 'not approved yet (add it to enabledMcpjsonServers, or set enableAllProjectMcpServers, in settings)';
}
