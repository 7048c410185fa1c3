/**
 * Starting the configured MCP servers (mcp-servers.ts loads this only when there is one): records a project
 * approval given now, decides each server's gate (approval.ts), and starts the manager in the background.
 */
import { gateOf, readApprovals, type ProjectApprovals, type ServerGate } from '../mcp/approval.js';
import { recordMcpChoice, recordProjectApproval } from '../mcp/approval-store.js';
import { serverTrustItem } from '../mcp/server-exposure.js';
import type { McpLimits, McpManager } from '../mcp/mcp-manager.js';
import { editLocalSettings } from '../permissions/settings-writer.js';
import type { McpPlan, McpStartContext } from './mcp-plan.js';
import type { McpApprovalQuestion } from './runtime-options.js';

export async function startServers(
  plan: McpPlan,
  context: McpStartContext,
  notices: string[],
  limits: McpLimits,
): Promise<McpManager> {
  const { config, projectRoot, trusted, registry } = context;
  const projectNames = plan.servers.filter((server) => server.scope === 'project').map((server) => server.name);
  if (context.approvedNow && trusted && projectNames.length > 0) {
    const failure = recordProjectApproval(config.mcaHome, projectRoot, projectNames);
    if (failure) notices.push(failure);
  }
  const approvals = readApprovals({ projectRoot, mcaHome: config.mcaHome, trusted }, notices);
  if (context.approvedNow && trusted) for (const name of projectNames) approvals.enabled.add(name);
  const { askApproval } = context;
  if (askApproval) await askAboutNewServers(plan, { ...context, askApproval }, approvals, notices);
  const servers = plan.servers.map((server) => ({ config: server, gate: gateOf(server, trusted, approvals) }));
  for (const { config: server, gate } of servers) {
    if (gate !== 'start') notices.push(`MCP server "${server.name}" not started: ${pendingReason(gate)}`);
  }
  const [{ McpManager }, { ToolListMemory }] = await Promise.all([
    import('../mcp/mcp-manager.js'),
    import('../mcp/tool-list-memory.js'),
  ]);
  const manager = new McpManager({
    servers,
    projectRoot,
    mcaHome: config.mcaHome,
    registry,
    limits,
    env: context.env,
    ...(context.boxProjectCommand ? { boxProjectCommand: context.boxProjectCommand } : {}),
    // Remembered tool lists let the first request go while the servers start (MCA_HOME/mcp-tools/).
    memory: new ToolListMemory(config.mcaHome, projectRoot),
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
    // Only servers without a remembered list hold the first request (bounded by MCP_TIMEOUT).
    registry.expectTools(manager.firstListing());
  }
  return manager;
}

function pendingReason(gate: ServerGate): string {
  if (gate === 'untrusted') return 'this project is not trusted (run `mca trust` after reading its .mcp.json)';
  if (gate === 'disabled') return 'it is in disabledMcpjsonServers';
  return 'not approved yet: start mca in this project and answer its question, run `mca trust`, or enable it in /mcp';
}

/**
 * Each project server of a trusted project that is neither approved nor disabled is put to the person, in order;
 * the answers are recorded (approval-store.ts) and hold at once.
 */
async function askAboutNewServers(
  plan: McpPlan,
  context: McpStartContext & { askApproval: McpApprovalQuestion },
  approvals: ProjectApprovals,
  notices: string[],
): Promise<void> {
  const { config, projectRoot, trusted } = context;
  for (const server of plan.servers) {
    if (gateOf(server, trusted, approvals) !== 'pending') continue;
    const answer = await context.askApproval(serverTrustItem(server, projectRoot));
    if (answer === 'all') approvals.enableAll = true;
    if (answer === 'skip') approvals.disabled.add(server.name);
    else approvals.enabled.add(server.name);
    const failure = recordMcpChoice(config.mcaHome, projectRoot, {
      ...(answer === 'skip' ? { disable: [server.name] } : { approve: [server.name] }),
      ...(answer === 'all' ? { all: true } : {}),
    });
    if (failure) notices.push(failure);
  }
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
