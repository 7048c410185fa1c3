/**
 * The runtime's MCP part: reads every configuration scope, adds each project server's command line to the trust
 * question, decides which servers start (approval.ts), and starts them in the background. The client library and
 * the manager load only when at least one server is to start; a runtime without servers pays one small config read.
 */
import { positiveNumber } from '../config/env-number.js';
import type { Config } from '../config/config.js';
import { gateOf, readApprovals, type ServerGate } from '../mcp/approval.js';
import { recordProjectApproval } from '../mcp/approval-store.js';
import { loadMcpConfig } from '../mcp/config-sources.js';
import type { McpManager, McpLimits } from '../mcp/mcp-manager.js';
import { sessionEnvironment, type EnvironmentView } from '../config/child-environment.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../mcp/result-envelope.js';
import { describeServer, type ServerConfig } from '../mcp/server-config.js';
import type { ToolRegistry } from '../tools/registry.js';
import { editLocalSettings } from '../permissions/settings-writer.js';
import type { RuntimeOptions } from './runtime-options.js';

/** Claude Code's names; mca's defaults: 30 s to connect, 10 minutes per call. */
export function mcpLimits(env: NodeJS.ProcessEnv = sessionEnvironment()): McpLimits {
  return {
    connectTimeoutMs: positiveNumber(env.MCP_TIMEOUT, 30_000),
    toolTimeoutMs: positiveNumber(env.MCP_TOOL_TIMEOUT, 600_000),
    maxOutputTokens: positiveNumber(env.MAX_MCP_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS),
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
  context: {
    config: Config;
    projectRoot: string;
    trusted: boolean;
    approvedNow: boolean;
    registry: ToolRegistry;
    /** `/mcp` may start a sign-in (a person at a terminal); see RuntimeOptions.mcpSignInFromSession. */
    signInFromSession: boolean;
    /** The runtime's environment: limits (MCP_TIMEOUT, …) and the stdio servers' processes. */
    env: EnvironmentView;
  },
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
  const limits = mcpLimits(context.env);
  const manager = new McpManager({
    servers,
    projectRoot,
    mcaHome: config.mcaHome,
    registry,
    limits,
    env: context.env,
    notice: (line) => registry.notice(line),
    expect: (arrival) => registry.expectTools(arrival),
    // Past 10% of the window in MCP tool definitions, the rest load on demand (ToolSearch).
    deferBeyondTokens: Math.floor(config.contextWindow * 0.1),
    // `/mcp` enable/disable of a project server: Claude Code's keys in the project's local settings.
    persistEnabled: (name, enabled) => recordMcpjsonChoice(projectRoot, name, enabled),
    ...(context.signInFromSession
      ? {
          authenticate: async (name: string, print: (line: string) => void) => {
            const { signInByName } = await import('../mcp/oauth/sign-in.js');
            const result = await signInByName(name, plan.servers, {
              mcaHome: config.mcaHome,
              print,
              interactiveTerminal: true,
            });
            print(result.message);
          },
        }
      : {}),
  });
  if (servers.some((server) => server.gate === 'start')) {
    void manager.start();
    registry.expectTools(manager.settled());
  }
  return manager;
}

function pendingReason(gate: ServerGate): string {
  if (gate === 'untrusted') return 'this project is not trusted (run `mca trust` after reading its .mcp.json)';
  if (gate === 'disabled') return 'it is in disabledMcpjsonServers';
  return 'not approved yet (add it to enabledMcpjsonServers, or set enableAllProjectMcpServers, in settings)';
}

/**
 * Disabling a project server lists it in `disabledMcpjsonServers` (which wins over approval); enabling takes it out
 * of there and lists it in `enabledMcpjsonServers`. Returns the file written.
 */
function recordMcpjsonChoice(projectRoot: string, name: string, enabled: boolean): string {
  const names = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== name) : [];
  return editLocalSettings(
    projectRoot,
    (settings) => {
      const disabled = names(settings.disabledMcpjsonServers);
      const approved = names(settings.enabledMcpjsonServers);
      return enabled
        ? { ...settings, disabledMcpjsonServers: disabled, enabledMcpjsonServers: [...approved, name] }
        : { ...settings, disabledMcpjsonServers: [...disabled, name] };
    },
    'the choice holds for this session only',
  );
}
