/**
 * The MCP servers an editor passes in `session/new` as one inline `--mcp-config` document (the runtime's flag
 * scope: the user's own servers, started whatever the project's trust). Stdio, http and sse; names as given.
 */
import type { McpServer } from '@agentclientprotocol/sdk';

type Pairs = ReadonlyArray<{ name: string; value: string }>;

function record(pairs: Pairs | undefined): Record<string, string> {
  return Object.fromEntries((pairs ?? []).map((pair) => [pair.name, pair.value]));
}

export function mcpConfigOf(servers: readonly McpServer[] | undefined): string | undefined {
  if (!servers || servers.length === 0) return undefined;
  const mcpServers: Record<string, unknown> = {};
  for (const server of servers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      mcpServers[server.name] = { type: server.type, url: server.url, headers: record(server.headers) };
    } else if ('command' in server) {
      mcpServers[server.name] = { type: 'stdio', command: server.command, args: server.args, env: record(server.env) };
    }
  }
  return JSON.stringify({ mcpServers });
}
