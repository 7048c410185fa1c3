/**
 * MCP servers as Claude Code reports them: `mcp_servers` of the `system`/`init` line (`{name, status}`) and the
 * `mcp_status` control answer (`McpServerStatus`: name, status, serverInfo, error, scope, source, tools). mca's
 * states map onto Claude Code's: connecting → pending, connected, failed, pending approval or an untrusted project →
 * pending, disabled, needs-auth (a remote server waiting for sign-in). The host's in-process servers (initialize `sdkMcpServers`) have source `sdk`.
 */
import type { McpManager } from '../mcp/mcp-manager.js';
import type { SdkMcpServers } from '../mcp/sdk-servers.js';
import { serverToolPrefix } from '../mcp/tool-names.js';

export type CcMcpState = 'connected' | 'failed' | 'needs-auth' | 'pending' | 'disabled';

export interface CcMcpServerStatus {
  name: string;
  status: CcMcpState;
  serverInfo?: { name: string; version: string };
  error?: string;
  scope?: string;
  source?: string;
  tools?: Array<{
    name: string;
    description?: string;
    annotations?: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean };
  }>;
}

const STATE: Record<ReturnType<McpManager['list']>[number]['state'], CcMcpState> = {
  connecting: 'pending',
  connected: 'connected',
  failed: 'failed',
  pending: 'pending',
  untrusted: 'pending',
  disabled: 'disabled',
  'needs-auth': 'needs-auth',
};

function hints(
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean } | undefined,
) {
  if (!annotations) return {};
  const out: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean } = {};
  if (typeof annotations.readOnlyHint === 'boolean') out.readOnly = annotations.readOnlyHint;
  if (typeof annotations.destructiveHint === 'boolean') out.destructive = annotations.destructiveHint;
  if (typeof annotations.openWorldHint === 'boolean') out.openWorld = annotations.openWorldHint;
  return Object.keys(out).length > 0 ? { annotations: out } : {};
}

/** Claude Code's `source`: `plugin` for a plugin's server (named `plugin:<plugin>:<server>`), `dynamic` for a flag's. */
function sourceOf(server: { name: string; scope: string }): string {
  if (server.name.startsWith('plugin:')) return 'plugin';
  return server.scope === 'flag' ? 'dynamic' : server.scope;
}

/** Every server, configured ones first, in Claude Code's McpServerStatus shape. */
export function mcpStatus(manager: McpManager | undefined, sdk: SdkMcpServers | undefined): CcMcpServerStatus[] {
  const configured = (manager?.list() ?? []).map((server): CcMcpServerStatus => {
    const status = STATE[server.state];
    const prefix = serverToolPrefix(server.name);
    return {
      name: server.name,
      status,
      ...(status === 'failed' && server.detail ? { error: server.detail } : {}),
      scope: server.scope === 'flag' ? 'dynamic' : server.scope,
      source: sourceOf(server),
      ...(status === 'connected'
        ? { tools: server.tools.map((tool) => ({ name: tool.startsWith(prefix) ? tool.slice(prefix.length) : tool })) }
        : {}),
    };
  });
  const hosted = (sdk?.list() ?? []).map((server): CcMcpServerStatus => ({
    name: server.name,
    status: server.state,
    ...(server.serverInfo ? { serverInfo: server.serverInfo } : {}),
    ...(server.state === 'failed' && server.detail ? { error: server.detail } : {}),
    scope: 'sdk',
    source: 'sdk',
    ...(server.state === 'connected'
      ? {
          tools: server.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            ...hints(tool.annotations),
          })),
        }
      : {}),
  }));
  return [...configured, ...hosted];
}

/** The init line's `mcp_servers`, each with its `source` as Claude Code 2.1.332 sends it. */
export function initMcpServers(
  manager: McpManager | undefined,
  sdk?: SdkMcpServers,
): Array<{ name: string; status: string; source?: string }> {
  return mcpStatus(manager, sdk).map(({ name, status, source }) => ({ name, status, ...(source ? { source } : {}) }));
}
