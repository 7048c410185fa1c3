/**
 * The MCP servers of one runtime: which start (approval.ts), connecting them concurrently in the background,
 * their tools registered as `mcp__<server>__<tool>` (and replaced on `notifications/tools/list_changed`, removed
 * when a server goes away), their status for `/mcp`, reconnecting or disabling/enabling one while the session
 * runs, their resources and prompts (server-catalog.ts), and closing them all. A server that fails or is slow is
 * one notice line, never a throw: the rest work.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { McpConnection, MAX_TOOLS_PER_SERVER } from './connection.js';
import { listingDefinitions } from './listing-tools.js';
import { describeServer, type ServerConfig } from './server-config.js';
import { serverExposure } from './server-exposure.js';
import type { McpManagerOptions } from './manager-options.js';
import { DeferredTools } from './deferred-tools.js';
import { McpNeedsSignInError } from './oauth/errors.js';
import { ServerCatalog } from './server-catalog.js';
import { PENDING_DETAIL, type McpActionResult, type ServerStatus } from './server-status.js';
import { RememberedLists, type RememberedTools } from './tool-list-memory.js';

export type { McpLimits, ToolSink } from './limits.js';
export type { McpManagerOptions } from './manager-options.js';
export type { McpActionResult, ServerState, ServerStatus } from './server-status.js';
import { errorMessage, oneLine } from './one-line.js';
import { settledWithin } from './settled-within.js';

export class McpManager {
  private readonly statuses: ServerStatus[] = [];
  private readonly connections = new Map<string, McpConnection>();
  private readonly connecting: Array<Promise<void>> = [];
  private closing = false;
  /** Aborted by close(): servers still starting stop instead of holding mca's exit. */
  private readonly closed = new AbortController();
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly placement: DeferredTools;
  private readonly configs = new Map<string, ServerConfig>();
  /** Bumped on every (re)connect or disable of a server: a connection of an older generation is stale. */
  private readonly generations = new Map<string, number>();
  readonly catalog: ServerCatalog;
  private changes = 0;
  private settling: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly remembered: RememberedLists;

  constructor(private readonly options: McpManagerOptions) {
    this.remembered = new RememberedLists(options.memory);
    this.placement = new DeferredTools(options.registry, options.deferBeyondTokens ?? Number.POSITIVE_INFINITY);
    this.catalog = new ServerCatalog({
      connection: (name) => this.connections.get(name),
      ready: () => this.settled(),
      timeoutMs: options.limits.connectTimeoutMs,
      notice: (line) => options.notice(line),
    });
    for (const { config, gate } of options.servers) {
      this.configs.set(config.name, config);
      this.statuses.push({
        name: config.name,
        scope: config.scope,
        source: config.source,
        launch: describeServer(config),
        ...(config.scope === 'project' ? { exposure: serverExposure(config, options.projectRoot) } : {}),
        state: gate === 'start' ? 'connecting' : gate,
        ...(gate === 'start' ? {} : { detail: PENDING_DETAIL[gate] }),
        tools: [],
      });
    }
  }

  /** Starts every approved server at once; resolves when all have connected or failed (never rejects). */
  start(): Promise<void> {
    for (const { config, gate } of this.options.servers) {
      if (gate !== 'start') continue;
      const remembered = this.remembered.recall(config);
      if (remembered) this.addTools(config.name, remembered);
      const connecting = this.connect(config);
      this.remembered.connecting(config.name, connecting);
      this.connecting.push(connecting);
    }
    return Promise.allSettled(this.connecting).then(() => undefined);
  }

  /**
   * What the first request waits for (after start()): nothing when every started server's tools were remembered
   * (a call to one still starting waits for that server alone), else every server (settled()).
   */
  firstListing(): Promise<void> {
    const started = this.options.servers.filter((server) => server.gate === 'start').map(({ config }) => config.name);
    return this.remembered.allRemembered(started) ? Promise.resolve() : this.settled();
  }

  /**
   * Waits until every server has connected or failed, at most `timeoutMs`; each server still connecting then is
   * named in one notice (it goes on connecting, and its tools appear when it is ready).
   */
  async ready(timeoutMs: number): Promise<void> {
    if ((await settledWithin(this.connecting, timeoutMs)) === 'timeout') {
      for (const status of this.statuses.filter((entry) => entry.state === 'connecting')) {
        this.options.notice(
          `MCP server "${status.name}" is still connecting after ${timeoutMs} ms (MCP_TIMEOUT); its tools come when it is ready`,
        );
      }
    }
  }

  /**
   * Resolves once the servers starting with the session have connected or failed, at most MCP_TIMEOUT after the
   * first call: the one wait (and its notice) is shared, so a server that hangs costs that time once, not per use.
   */
  settled(): Promise<void> {
    this.settling ??= this.ready(this.options.limits.connectTimeoutMs);
    return this.settling;
  }

  list(): readonly ServerStatus[] {
    return this.statuses;
  }

  /** Grows whenever a server connects, goes away, or changes its lists: readers of the catalog list again. */
  get version(): number {
    return this.changes;
  }

  /** Calls `listener` after each change `version` counts; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    this.changes += 1;
    for (const listener of this.listeners) listener();
  }

  /** Whether sign-in can be started from `/mcp` (the OAuth hook is there). */
  get canSignIn(): boolean {
    return this.options.authenticate !== undefined;
  }

  /** Ends the server's connection (if any) and connects it again; its tools are registered anew. */
  async reconnect(name: string): Promise<McpActionResult> {
    const status = this.statuses.find((entry) => entry.name === name);
    const config = this.configs.get(name);
    if (!status || !config) return { ok: false, message: `No MCP server named "${name}".` };
    if (status.state === 'untrusted' || status.state === 'pending' || status.state === 'disabled') {
      return { ok: false, message: `MCP server "${name}" is ${status.state}: ${status.detail ?? ''}`.trim() };
    }
    await this.disconnect(name);
    status.state = 'connecting';
    delete status.detail;
    await this.connect(config);
    return this.outcome(name, 'reconnected');
  }

  /**
   * Disables or enables a server. A project server's choice is written to the local settings (persistEnabled);
   * any other server's holds for this session. An untrusted project's servers can never be enabled here.
   */
  async setEnabled(name: string, enabled: boolean): Promise<McpActionResult> {
    const status = this.statuses.find((entry) => entry.name === name);
    const config = this.configs.get(name);
    if (!status || !config) return { ok: false, message: `No MCP server named "${name}".` };
    if (status.state === 'untrusted') return { ok: false, message: `MCP server "${name}": ${status.detail ?? ''}` };
    const off = status.state === 'disabled' || status.state === 'pending';
    if (off === !enabled)
      return { ok: true, message: `MCP server "${name}" is already ${enabled ? 'enabled' : 'disabled'}.` };
    let where = 'for this session';
    if (config.scope === 'project' && this.options.persistEnabled) {
      try {
        where = `in ${this.options.persistEnabled(name, enabled)}`;
      } catch (error) {
        where = `for this session only (${oneLine(errorMessage(error))})`;
      }
    }
    if (!enabled) {
      await this.disconnect(name);
      status.state = 'disabled';
      status.detail = `disabled in /mcp (${where})`;
      return { ok: true, message: `MCP server "${name}" disabled ${where}.` };
    }
    status.state = 'connecting';
    delete status.detail;
    await this.connect(config);
    return this.outcome(name, `enabled ${where}`);
  }

  /** Signs in through the OAuth hook, then reconnects; without the hook, says how to sign in. */
  async signIn(name: string, print: (line: string) => void = () => undefined): Promise<McpActionResult> {
    if (!this.configs.has(name)) return { ok: false, message: `No MCP server named "${name}".` };
    const authenticate = this.options.authenticate;
    if (!authenticate) return { ok: false, message: `sign-in: run \`mca mcp login ${name}\`` };
    try {
      await authenticate(name, print);
    } catch (error) {
      return { ok: false, message: `Sign-in to "${name}" failed: ${oneLine(errorMessage(error))}` };
    }
    return await this.reconnect(name);
  }
  async close(): Promise<void> {
    this.closing = true;
    this.closed.abort();
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }

  private status(name: string): ServerStatus {
    const found = this.statuses.find((entry) => entry.name === name);
    if (!found) throw new Error(`no MCP server ${name}`);
    return found;
  }

  private outcome(name: string, done: string): McpActionResult {
    const status = this.status(name);
    if (status.state === 'connected') {
      return { ok: true, message: `MCP server "${name}" ${done}: ${status.tools.length} tools.` };
    }
    return { ok: false, message: `MCP server "${name}" ${status.state}: ${status.detail ?? ''}`.trim() };
  }

  /** Ends a server's connection without reporting it as failed; its tools and cached lists go. */
  private async disconnect(name: string): Promise<void> {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
    const connection = this.connections.get(name);
    this.connections.delete(name);
    this.removeTools(this.status(name));
    this.catalog.forget(name);
    this.changed();
    await connection?.close();
  }

  private fail(name: string, why: string): void {
    const status = this.status(name);
    this.removeTools(status);
    status.state = 'failed';
    status.detail = oneLine(why);
    this.catalog.forget(name);
    this.changed();
    this.options.notice(`MCP server "${name}" failed: ${status.detail}`);
  }

  /** A remote server wants a sign-in: its own state with the `mca mcp login` hint, one notice, no browser. */
  private needsSignIn(error: McpNeedsSignInError): void {
    const status = this.status(error.server);
    const already = status.state === 'needs-auth';
    this.removeTools(status);
    status.state = 'needs-auth';
    status.detail = error.message;
    // One notice per loss: a listing and a call that fail on the same withdrawn sign-in say it once.
    if (!already) this.options.notice(`MCP server "${error.server}" ${error.message}`);
  }

  /**
   * A call found the server's authorization gone mid-session (refresh refused, or a 401 a refresh could not cure):
   * the server is `needs-auth` at once, its tools leave the next request, one notice. Only the first failing call of
   * that connection does this (a stale connection, or one already replaced by a reconnect, is left alone).
   */
  private lostSignIn(name: string, connection: McpConnection | undefined, error: McpNeedsSignInError): void {
    if (!connection || this.connections.get(name) !== connection) return;
    this.needsSignIn(error);
    void this.disconnect(name);
  }

  private async connect(config: ServerConfig): Promise<void> {
    const { limits, projectRoot } = this.options;
    const generation = this.generations.get(config.name) ?? 0;
    const current = (): boolean => (this.generations.get(config.name) ?? 0) === generation;
    let connection: McpConnection;
    try {
      connection = await McpConnection.open(config, {
        projectRoot,
        ...(this.options.mcaHome !== undefined ? { mcaHome: this.options.mcaHome } : {}),
        timeoutMs: limits.connectTimeoutMs,
        ...(this.options.env ? { env: this.options.env } : {}),
        signal: this.closed.signal,
        ...(config.scope === 'project' ? { box: this.options.boxProjectCommand } : {}),
        // The next model request waits for the new list (bounded by MCP_TIMEOUT), so it never offers a stale one.
        onToolsChanged: () => {
          if (current()) this.options.expect(this.refresh(config.name));
        },
        onListChanged: (what) => {
          if (!current()) return;
          this.catalog.forget(config.name, what);
          this.changed();
        },
        onClosed: (reason) => {
          if (!current()) return;
          this.connections.delete(config.name);
          // A server already marked failed or needs-auth (and then closed by mca) keeps that reason.
          if (!this.closing && this.status(config.name).state === 'connected') {
            this.fail(config.name, `the server stopped (${reason})`);
          }
        },
      });
    } catch (error) {
      if (!current() || this.closing) return;
      if (error instanceof McpNeedsSignInError) this.needsSignIn(error);
      else this.fail(config.name, error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.closing || !current()) {
      await connection.close();
      return;
    }
    this.connections.set(config.name, connection);
    // Connected once its tools are listed (a listing that fails marks it failed instead).
    await this.refresh(config.name);
    const status = this.status(config.name);
    if (this.connections.get(config.name) === connection && status.state === 'connecting') status.state = 'connected';
    this.changed();
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
      if (this.closing) return;
      if (error instanceof McpNeedsSignInError) this.needsSignIn(error);
      else this.fail(name, `listing its tools failed: ${error instanceof Error ? error.message : String(error)}`);
      await connection.close();
      return;
    }
    const cut = `MCP server "${name}" offers more than ${MAX_TOOLS_PER_SERVER} tools; ${listed.dropped} left out`;
    if (listed.dropped > 0) this.options.notice(cut);
    const now: RememberedTools = { version: connection.serverVersion(), tools: listed.tools, dropped: listed.dropped };
    // Tools registered from memory call the live connection: an unchanged list keeps them.
    if (this.remembered.listed(connection.config, now) === 'keep') return;
    this.removeTools(this.status(name));
    this.addTools(name, now, connection);
  }

  /**
   * Registers a listing's tools: listed by `connection`, or (without one) remembered from an earlier session and
   * registered before the server has listed them in this one.
   */
  private addTools(name: string, listed: RememberedTools, connection?: McpConnection): void {
    const status = this.status(name);
    const tools = listingDefinitions(listed.tools, {
      server: name,
      limits: this.options.limits,
      timeoutMs: this.configs.get(name)?.timeoutMs ?? this.options.limits.toolTimeoutMs,
      taken: new Set(this.placement.names()),
      connection: () => this.connections.get(name),
      onSignInNeeded: (error) => this.lostSignIn(name, connection ?? this.connections.get(name), error),
      ...(connection ? {} : { remembered: { whenReady: () => this.remembered.whenReady(name), status } }),
    });
    for (const listedTool of tools) {
      if (listedTool.ok) {
        this.placement.add(listedTool.tool);
        status.tools.push(listedTool.tool.name);
      } else if (connection) {
        const what = JSON.stringify(oneLine(listedTool.remoteName));
        this.options.notice(`MCP server "${name}": tool ${what} left out: ${listedTool.message}`);
      }
    }
  }

  private removeTools(status: ServerStatus): void {
    for (const tool of status.tools) this.placement.remove(tool);
    status.tools = [];
  }
}
