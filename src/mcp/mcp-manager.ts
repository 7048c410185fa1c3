/**
 * The MCP servers of one runtime: which start (approval.ts), connecting them concurrently in the background,
 * their tools registered as `mcp__<server>__<tool>` (and replaced on `notifications/tools/list_changed`, removed
 * when a server goes away), their status for `/mcp`, and closing them all. A server that fails or is slow is one
 * notice line, never a throw: the rest work.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { McpConnection, MAX_TOOLS_PER_SERVER } from './connection.js';
import { mcpToolDefinition } from './mcp-tool.js';
import type { ServerGate } from './approval.js';
import { describeServer, type ServerConfig } from './server-config.js';
import { mcpToolName } from './tool-names.js';
import type { McpLimits, ToolSink } from './limits.js';
import { DeferredTools } from './deferred-tools.js';
import { McpNeedsSignInError } from './oauth/errors.js';

export type { McpLimits, ToolSink } from './limits.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

/** `needs-auth`: a remote server answered 401 and no stored sign-in worked (`mca mcp login <name>`). */
export type ServerState = 'connecting' | 'connected' | 'failed' | 'needs-auth' | 'pending' | 'untrusted' | 'disabled';

export interface ServerStatus {
  readonly name: string;
  readonly scope: ServerConfig['scope'];
  readonly source: string;
  /** How it is started: the command line, or `http <url>`. */
  readonly launch: string;
  state: ServerState;
  /** Why it failed, or what to do for a pending one. */
  detail?: string;
  /** The model-facing names of its tools. */
  tools: string[];
}

export interface McpManagerOptions {
  servers: ReadonlyArray<{ config: ServerConfig; gate: ServerGate }>;
  projectRoot: string;
  /** Where stored MCP sign-ins live; without it remote servers connect without OAuth. */
  mcaHome?: string;
  registry: ToolSink;
  limits: McpLimits;
  /** One line for the person (a server that failed, dropped tools). */
  notice: (line: string) => void;
  /** MCP tool definitions beyond this many tokens are loaded on demand through ToolSearch (deferred-tools.ts). */
  deferBeyondTokens?: number;
  /** Tools are on their way (a list being fetched again): the next model request should wait for `arrival`. */
  expect: (arrival: Promise<unknown>) => void;
}

const PENDING_DETAIL: Record<Exclude<ServerGate, 'start'>, string> = {
  untrusted: 'the project is not trusted (mca trust)',
  pending: 'not approved: add it to enabledMcpjsonServers (or set enableAllProjectMcpServers) in settings',
  disabled: 'listed in disabledMcpjsonServers',
};

export class McpManager {
  private readonly statuses: ServerStatus[] = [];
  private readonly connections = new Map<string, McpConnection>();
  private readonly connecting: Array<Promise<void>> = [];
  private closing = false;
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly placement: DeferredTools;

  constructor(private readonly options: McpManagerOptions) {
    this.placement = new DeferredTools(options.registry, options.deferBeyondTokens ?? Number.POSITIVE_INFINITY);
    for (const { config, gate } of options.servers) {
      this.statuses.push({
        name: config.name,
        scope: config.scope,
        source: config.source,
        launch: describeServer(config),
        state: gate === 'start' ? 'connecting' : gate,
        ...(gate === 'start' ? {} : { detail: PENDING_DETAIL[gate] }),
        tools: [],
      });
    }
  }

  /** Starts every approved server at once; resolves when all have connected or failed (never rejects). */
  start(): Promise<void> {
    for (const { config, gate } of this.options.servers) {
      if (gate === 'start') this.connecting.push(this.connect(config));
    }
    return Promise.allSettled(this.connecting).then(() => undefined);
  }

  /**
   * Waits until every server has connected or failed, at most `timeoutMs`; each server still connecting then is
   * named in one notice (it goes on connecting, and its tools appear when it is ready).
   */
  async ready(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    const outcome = await Promise.race([Promise.allSettled(this.connecting).then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      for (const status of this.statuses.filter((entry) => entry.state === 'connecting')) {
        this.options.notice(
          `MCP server "${status.name}" is still connecting after ${timeoutMs} ms (MCP_TIMEOUT); its tools come when it is ready`,
        );
      }
    }
  }

  list(): readonly ServerStatus[] {
    return this.statuses;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }

  private status(name: string): ServerStatus {
    const found = this.statuses.find((entry) => entry.name === name);
    if (!found) throw new Error(`no MCP server ${name}`);
    return found;
  }

  private fail(name: string, why: string): void {
    const status = this.status(name);
    this.removeTools(status);
    status.state = 'failed';
    status.detail = oneLine(why);
    this.options.notice(`MCP server "${name}" failed: ${status.detail}`);
  }

  /** A remote server wants a sign-in: its own state with the `mca mcp login` hint, one notice, no browser. */
  private needsSignIn(error: McpNeedsSignInError): void {
    const status = this.status(error.server);
    this.removeTools(status);
    status.state = 'needs-auth';
    status.detail = error.message;
    this.options.notice(`MCP server "${error.server}" ${error.message}`);
  }

  private async connect(config: ServerConfig): Promise<void> {
    const { limits, projectRoot } = this.options;
    let connection: McpConnection;
    try {
      connection = await McpConnection.open(config, {
        projectRoot,
        ...(this.options.mcaHome !== undefined ? { mcaHome: this.options.mcaHome } : {}),
        timeoutMs: limits.connectTimeoutMs,
        // The next model request waits for the new list (bounded by MCP_TIMEOUT), so it never offers a stale one.
        onToolsChanged: () => this.options.expect(this.refresh(config.name)),
        onClosed: (reason) => {
          this.connections.delete(config.name);
          // A server already marked failed or needs-auth (and then closed by mca) keeps that reason.
          if (!this.closing && this.status(config.name).state === 'connected') {
            this.fail(config.name, `the server stopped (${reason})`);
          }
        },
      });
    } catch (error) {
      if (error instanceof McpNeedsSignInError) this.needsSignIn(error);
      else this.fail(config.name, error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.closing) {
      await connection.close();
      return;
    }
    this.connections.set(config.name, connection);
    this.status(config.name).state = 'connected';
    await this.refresh(config.name);
  }

  /** Lists the server's tools and replaces its registered ones; one listing per server at a time, in order. */
  private refresh(name: string): Promise<void> {
    const previous = this.refreshing.get(name) ?? Promise.resolve();
    const next = previous.then(() => this.relist(name));
    this.refreshing.set(name, next);
    return next;
  }

  private async relist(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) return;
    let listed: { tools: Tool[]; dropped: number };
    try {
      listed = await connection.listTools(this.options.limits.connectTimeoutMs);
    } catch (error) {
      if (error instanceof McpNeedsSignInError) this.needsSignIn(error);
      else this.fail(name, `listing its tools failed: ${error instanceof Error ? error.message : String(error)}`);
      await connection.close();
      return;
    }
    const status = this.status(name);
    this.removeTools(status);
    if (listed.dropped > 0) {
      this.options.notice(
        `MCP server "${name}" offers more than ${MAX_TOOLS_PER_SERVER} tools; ${listed.dropped} left out`,
      );
    }
    const taken = new Set(this.placement.names());
    for (const tool of listed.tools) {
      const modelName = mcpToolName(name, tool.name, taken);
      const definition = mcpToolDefinition({
        name: modelName,
        server: name,
        tool,
        limits: this.options.limits,
        timeoutMs: connection.config.timeoutMs ?? this.options.limits.toolTimeoutMs,
        connection: () => this.connections.get(name),
      });
      if (!definition.ok) {
        this.options.notice(
          `MCP server "${name}": tool ${JSON.stringify(oneLine(tool.name))} left out: ${definition.message}`,
        );
        continue;
      }
      this.placement.add(definition.tool);
      taken.add(modelName);
      status.tools.push(modelName);
    }
  }

  private removeTools(status: ServerStatus): void {
    for (const tool of status.tools) this.placement.remove(tool);
    status.tools = [];
  }
}

/** A server's words, as one short safe line. */
function oneLine(text: string): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' ').trim());
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
