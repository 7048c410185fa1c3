/**
 * The in-process MCP servers of an Agent SDK host (initialize `sdkMcpServers`, with `sdkMcpServerManifests` in SDK
 * 0.3.x): each is reached through the official client over a HostServerTransport (`mcp_message` control requests),
 * and its tools are registered as `mcp__<server>__<tool>` exactly as a configured server's (mcp-tool.ts: the same
 * permission, bounds and result handling). A server the host names but cannot serve is `failed` with one notice;
 * a host that initializes again with other servers gets the old ones' tools removed.
 */
import { LinearSchemaValidator } from './linear-schema-validator.js';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { CLIENT_INFO, MAX_TOOLS_PER_SERVER } from './connection.js';
import { HostServerTransport, manifestOf, type HostMessenger } from './host-transport.js';
import type { McpLimits, ToolSink } from './limits.js';
import { loadMcpLibrary } from './load-client.js';
import { mcpToolDefinition } from './mcp-tool.js';
import { mcpToolName } from './tool-names.js';
import { oneLine } from './one-line.js';

/** A host may register at most this many servers (each costs a handshake). */
export const MAX_SDK_SERVERS = 50;

export interface SdkServerStatus {
  readonly name: string;
  state: 'pending' | 'connected' | 'failed';
  detail?: string;
  serverInfo?: { name: string; version: string };
  /** The server's tools: its own name, the model-facing one, its description and hints. */
  tools: Array<{ name: string; modelName: string; description?: string; annotations?: Tool['annotations'] }>;
}

export interface SdkServersOptions {
  registry: ToolSink & { expectTools(arrival: Promise<unknown>): void };
  limits: McpLimits;
  /** Sends one JSON-RPC message to the host's server `server` (a `mcp_message` control request). */
  messenger: (server: string) => HostMessenger;
  notice: (line: string) => void;
}

interface Live {
  client: Client;
  transport: HostServerTransport;
}

export class SdkMcpServers {
  private readonly statuses: SdkServerStatus[] = [];
  private readonly live = new Map<string, Live>();
  private connecting: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SdkServersOptions) {}

  list(): readonly SdkServerStatus[] {
    return this.statuses;
  }

  /**
   * Connects the host's servers (names from `sdkMcpServers`, manifests by name); the next model request waits for
   * their tools. Resolves (never rejects) once every server has connected or failed.
   */
  register(names: unknown, manifests: unknown): Promise<void> {
    if (!Array.isArray(names)) return Promise.resolve();
    void this.closeAll();
    const manifestMap =
      typeof manifests === 'object' && manifests !== null ? (manifests as Record<string, unknown>) : {};
    const wanted = [...new Set(names.filter((name): name is string => typeof name === 'string' && name !== ''))];
    if (wanted.length > MAX_SDK_SERVERS) {
      this.options.notice(
        `the SDK host named ${wanted.length} MCP servers; only the first ${MAX_SDK_SERVERS} are used`,
      );
    }
    const connecting = wanted.slice(0, MAX_SDK_SERVERS).map((name) => {
      const status: SdkServerStatus = { name, state: 'pending', tools: [] };
      this.statuses.push(status);
      return this.connect(status, manifestOf(manifestMap[name]));
    });
    const settled = Promise.allSettled(connecting).then(() => undefined);
    this.connecting = settled;
    this.options.registry.expectTools(settled);
    return settled;
  }

  /** Resolves once the servers of the last `register` have connected or failed. */
  settled(): Promise<void> {
    return this.connecting.then(() => undefined);
  }

  /** A message the host's server sent on its own (`mcp_message` from the host). */
  fromHost(server: string, message: unknown): void {
    this.live.get(server)?.transport.fromHost(message);
  }

  async closeAll(): Promise<void> {
    for (const status of this.statuses) this.removeTools(status);
    this.statuses.splice(0);
    const live = [...this.live.values()];
    this.live.clear();
    await Promise.allSettled(live.map(({ client }) => client.close()));
  }

  private async connect(status: SdkServerStatus, manifest: ReturnType<typeof manifestOf>): Promise<void> {
    const { limits } = this.options;
    try {
      const library = await loadMcpLibrary();
      const transport = new HostServerTransport(this.options.messenger(status.name), library, manifest);
      const client = new library.Client(CLIENT_INFO, {
        capabilities: {},
        // A server's `outputSchema` patterns run on RE2: a catastrophic one cannot hold the main thread.
        jsonSchemaValidator: new LinearSchemaValidator(),
      });
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        this.options.registry.expectTools(this.listTools(status));
      });
      await client.connect(transport, { timeout: limits.connectTimeoutMs });
      this.live.set(status.name, { client, transport });
      const info = client.getServerVersion();
      if (info) status.serverInfo = { name: oneLine(info.name), version: oneLine(info.version) };
      status.state = 'connected';
      await this.listTools(status);
    } catch (error) {
      status.state = 'failed';
      status.detail = oneLine(error instanceof Error ? error.message : String(error));
      this.removeTools(status);
      this.options.notice(`MCP server "${status.name}" of the SDK host failed: ${status.detail}`);
    }
  }

  private async listTools(status: SdkServerStatus): Promise<void> {
    const live = this.live.get(status.name);
    if (!live) return;
    const { tools } = await live.client.listTools(undefined, {
      timeout: this.options.limits.connectTimeoutMs,
      cacheMode: 'bypass',
    });
    this.removeTools(status);
    if (tools.length > MAX_TOOLS_PER_SERVER) {
      this.options.notice(
        `MCP server "${status.name}" offers more than ${MAX_TOOLS_PER_SERVER} tools; ${tools.length - MAX_TOOLS_PER_SERVER} left out`,
      );
    }
    const taken = new Set(this.options.registry.names());
    for (const tool of tools.slice(0, MAX_TOOLS_PER_SERVER)) {
      const modelName = mcpToolName(status.name, tool.name, taken);
      const built = mcpToolDefinition({
        name: modelName,
        server: status.name,
        tool,
        limits: this.options.limits,
        timeoutMs: this.options.limits.toolTimeoutMs,
        connection: () => {
          const current = this.live.get(status.name);
          return current
            ? {
                callTool: (name, args, timeoutMs, signal) =>
                  current.client.callTool({ name, arguments: args }, { timeout: timeoutMs, signal }),
              }
            : undefined;
        },
      });
      if (!built.ok) {
        this.options.notice(
          `MCP server "${status.name}": tool ${JSON.stringify(oneLine(tool.name))} left out: ${built.message}`,
        );
        continue;
      }
      this.options.registry.register(built.tool);
      taken.add(modelName);
      status.tools.push({
        name: oneLine(tool.name),
        modelName,
        ...(tool.description === undefined ? {} : { description: oneLine(tool.description) }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      });
    }
  }

  private removeTools(status: SdkServerStatus): void {
    for (const tool of status.tools) this.options.registry.unregister(tool.modelName);
    status.tools = [];
  }
}
