/**
 * The MCP servers an Agent SDK program adds while the session runs (`Query.setMcpServers`, control request
 * `mcp_set_servers {servers}`), and the per-server actions `mcp_toggle {serverName, enabled}` and
 * `mcp_reconnect {serverName}` over every server mca runs.
 *
 * Each stdio/http/sse server the host names is checked as a `--mcp-config` entry (server-config.ts) and run by
 * its own McpManager, so its tools are `mcp__<server>__<tool>` under the same rules, bounds and timeouts as any
 * configured server's; a later call replaces the set: servers it leaves out are disconnected (their tools leave
 * the next request), a server named again with the same entry is kept as it is, one with another entry is
 * restarted. `{type: "sdk"}` entries are the program's in-process servers: the set of them replaces the one
 * `initialize` gave (SdkMcpServers, handshake over `mcp_message`). The answer is the SDK's McpSetServersResult
 * and comes once every added server has connected or failed (each bounded by MCP_TIMEOUT).
 *
 * Servers from settings files and `--mcp-config` are never removed here, and a host entry cannot take the name of
 * one of them (an error for that name): a program cannot silently replace the user's configured server.
 */
import type { McpManager, McpLimits, McpActionResult } from '../mcp/mcp-manager.js';
import type { SdkMcpServers } from '../mcp/sdk-servers.js';
import { MAX_SDK_SERVERS } from '../mcp/sdk-servers.js';
import { parseServerConfig, type ServerConfig } from '../mcp/server-config.js';
import { mcpStatus, type CcMcpServerStatus } from '../claude-code/mcp.js';
import { serverToolPrefix } from '../mcp/tool-names.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { isRecord } from '../text/json-guards.js';

export const HOST_MCP_SOURCE = 'the SDK host (setMcpServers)';

/** What `Query.setMcpServers` resolves with (the SDK's McpSetServersResult). */
export interface SetServersResult {
  added: string[];
  removed: string[];
  errors: Record<string, string>;
}

export interface HostMcpOptions {
  projectRoot: string;
  mcaHome: string;
  registry: ToolRegistry;
  limits: McpLimits;
  /** The servers of the settings files and flags (never replaced here). */
  configured: () => McpManager | undefined;
  sdk: SdkMcpServers;
}

interface HostServer {
  /** The entry as the host sent it (JSON), to tell "the same again" from a changed one. */
  key: string;
  manager: McpManager;
}

function stableKey(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    isRecord(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b))) : entry,
  );
}

export class HostMcpServers {
  private readonly servers = new Map<string, HostServer>();
  /** One `mcp_set_servers` at a time, in the order the host sent them; a toggle or reconnect waits for them. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: HostMcpOptions) {}

  /** `mcp_set_servers`: replaces the host's servers with `raw` (name → McpServerConfig). */
  set(raw: unknown): Promise<SetServersResult> {
    const next = this.queue.then(() => this.replace(raw));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The host's servers in Claude Code's McpServerStatus shape (scope and source `dynamic`). */
  statuses(): CcMcpServerStatus[] {
    return [...this.servers.values()].flatMap((server) => mcpStatus(server.manager, undefined));
  }

  /** The host's servers as mca's manager reports them (their model-facing tool names). */
  list(): ReturnType<McpManager['list']> {
    return [...this.servers.values()].flatMap((server) => server.manager.list());
  }

  /** `mcp_toggle`: disables (disconnects, tools gone from the next request) or enables (connects) a server. */
  async toggle(name: string, enabled: boolean): Promise<McpActionResult> {
    await this.queue;
    const manager = this.managerOf(name);
    if (manager) return await manager.setEnabled(name, enabled);
    return this.notOurs(name, enabled ? 'enabled' : 'disabled');
  }

  /** `mcp_reconnect`: ends the server's connection and connects it again; its tools are listed anew. */
  async reconnect(name: string): Promise<McpActionResult> {
    await this.queue;
    const manager = this.managerOf(name);
    if (manager) return await manager.reconnect(name);
    return this.notOurs(name, 'reconnected');
  }

  async closeAll(): Promise<void> {
    const managers = [...this.servers.values()].map((server) => server.manager);
    this.servers.clear();
    await Promise.allSettled(managers.map((manager) => manager.close()));
  }

  private managerOf(name: string): McpManager | undefined {
    const host = this.servers.get(name)?.manager;
    if (host) return host;
    const configured = this.options.configured();
    return configured?.list().some((server) => server.name === name) ? configured : undefined;
  }

  private notOurs(name: string, what: string): McpActionResult {
    if (this.options.sdk.list().some((server) => server.name === name)) {
      return {
        ok: false,
        message: `mca cannot ${what === 'reconnected' ? 'reconnect' : 'toggle'} the in-process SDK MCP server "${name}"; setMcpServers can remove or add it`,
      };
    }
    return { ok: false, message: `No MCP server named "${name}".` };
  }

  private async replace(raw: unknown): Promise<SetServersResult> {
    if (!isRecord(raw)) throw new Error('mcp_set_servers needs "servers": an object of name → server entry');
    const result: SetServersResult = { added: [], removed: [], errors: {} };
    const entries = Object.entries(raw);
    if (entries.length > MAX_SDK_SERVERS) {
      throw new Error(`mcp_set_servers named ${entries.length} servers; at most ${MAX_SDK_SERVERS} are accepted`);
    }
    const configuredNames = new Set((this.options.configured()?.list() ?? []).map((server) => server.name));
    const sdkNames = entries.filter(([, entry]) => isRecord(entry) && entry.type === 'sdk').map(([name]) => name);
    // The in-process set first: an in-process server left out goes before a new server may take its tool names.
    await this.replaceSdk(sdkNames, result);
    // Tool names are mcp__<server>__<tool> with the server name sanitized: two servers must not share a prefix.
    const prefixes = new Map<string, string>();
    for (const name of [...configuredNames, ...sdkNames]) prefixes.set(serverToolPrefix(name), name);
    const wanted = new Map<string, { key: string; config: ServerConfig }>();
    for (const [name, entry] of entries) {
      if (sdkNames.includes(name)) continue;
      const clash = prefixes.get(serverToolPrefix(name));
      if (configuredNames.has(name)) {
        result.errors[name] =
          `a server named "${name}" is configured in the settings or --mcp-config; pick another name`;
      } else if (clash !== undefined) {
        result.errors[name] = `its tools would share names with the server "${clash}"; pick another name`;
      } else {
        const parsed = parseServerConfig(name, entry, { scope: 'flag', source: HOST_MCP_SOURCE });
        if (!parsed.ok) result.errors[name] = parsed.message;
        else {
          prefixes.set(serverToolPrefix(name), name);
          wanted.set(name, { key: stableKey(entry), config: parsed.config });
        }
      }
    }
    // Left out, or named again with another entry: disconnected (tools removed) before anything new starts.
    for (const [name, server] of [...this.servers]) {
      const kept = wanted.get(name);
      if (kept && kept.key === server.key) {
        wanted.delete(name);
        continue;
      }
      this.servers.delete(name);
      await server.manager.setEnabled(name, false);
      await server.manager.close();
      if (!kept) result.removed.push(name);
    }
    const started: Array<Promise<void>> = [];
    for (const [name, { key, config }] of wanted) {
      const manager = await this.managerFor(config);
      this.servers.set(name, { key, manager });
      result.added.push(name);
      started.push(manager.start());
    }
    await Promise.all(started);
    for (const name of result.added) {
      const status = this.servers.get(name)?.manager.list()[0];
      if (status && status.state !== 'connected') result.errors[name] = status.detail ?? status.state;
    }
    return result;
  }

  /** The in-process servers: a set other than the running one replaces it (kept ones reconnect over mcp_message). */
  private async replaceSdk(names: string[], result: SetServersResult): Promise<void> {
    const { sdk } = this.options;
    const before = sdk.list().map((server) => server.name);
    if (before.length === names.length && before.every((name) => names.includes(name))) return;
    await sdk.register(names, undefined);
    result.removed.push(...before.filter((name) => !names.includes(name)));
    result.added.push(...names.filter((name) => !before.includes(name)));
    for (const server of sdk.list()) {
      if (server.state === 'failed') result.errors[server.name] = server.detail ?? 'failed';
    }
  }

  private async managerFor(config: ServerConfig): Promise<McpManager> {
    const { McpManager } = await import('../mcp/mcp-manager.js');
    const { registry } = this.options;
    return new McpManager({
      servers: [{ config, gate: 'start' }],
      projectRoot: this.options.projectRoot,
      mcaHome: this.options.mcaHome,
      registry,
      limits: this.options.limits,
      notice: (line) => registry.notice(line),
      expect: (arrival) => registry.expectTools(arrival),
      // Never deferred: one ToolSearch tool belongs to the configured servers (a second could not register), and
      // the host's in-process servers' tools are not deferred either. Each server is capped at its tool count.
      deferBeyondTokens: Number.POSITIVE_INFINITY,
    });
  }
}
