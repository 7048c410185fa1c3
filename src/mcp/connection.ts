/**
 * One connected MCP server: the client library's Client over the server's transport (mca's own stdio transport,
 * or the library's streamable HTTP / legacy SSE ones), its tool list (bounded), tool calls with a timeout, and the
 * server's `notifications/tools/list_changed`. Everything the server sends is untrusted: names are sanitised by
 * the manager, results by result-envelope.ts.
 */
import { LinearSchemaValidator } from './linear-schema-validator.js';
import type {
  CallToolResult,
  Client,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import { loadMcpLibrary } from './load-client.js';
import type { EnvironmentView } from '../config/child-environment.js';
import type { ServerConfig } from './server-config.js';
import type { ProjectCommandBox } from '../tools/processes/bash-box.js';
import { GroupStdioTransport } from './stdio-transport.js';
import { isSignInNeeded, transportAuth } from './oauth/connect-auth.js';
import { McpNeedsSignInError } from './oauth/errors.js';

/** A server may offer at most this many tools; more are dropped with a notice (a flood cannot bloat the prompt). */
export const MAX_TOOLS_PER_SERVER = 500;
/** Descriptions longer than this are cut (a server's prose is sent to the model with every request). */
export const MAX_DESCRIPTION_CHARS = 2048;
/** Resources and prompts a server may list (a flood cannot fill memory or the completion list). */
export const MAX_LISTED_RESOURCES = 200;
export const MAX_LISTED_PROMPTS = 200;

/** How mca names itself in an MCP handshake. */
export const CLIENT_INFO = { name: 'mca', version: '0.1.0' };

export interface ConnectOptions {
  projectRoot: string;
  /** Where stored sign-ins live (`$MCA_HOME/mcp-auth`); without it a remote server gets no OAuth. */
  mcaHome?: string;
  /** Connection and handshake must finish within this (MCP_TIMEOUT). */
  timeoutMs: number;
  /** The runtime's environment: the processes of stdio servers start with it (absent: process.env with the session's overlay). */
  env?: EnvironmentView;

  /** Aborted: mca is closing; a connection still being opened stops its server and open() rejects. */
  signal?: AbortSignal;
  /** The server said its tool list changed; the manager lists again. */
  onToolsChanged: () => void;
  /** The server said its resource or prompt list changed; the manager drops its cached list. */
  onListChanged?: (what: 'resources' | 'prompts') => void;
  /** The connection ended (the server exited or the stream closed). */
  onClosed: (reason: string) => void;
  /** Runs a stdio server in the sandbox (given for project-scoped servers while the box is on). */
  box?: ProjectCommandBox | undefined;
}

export class McpConnection {
  private constructor(
    readonly config: ServerConfig,
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  static async open(config: ServerConfig, options: ConnectOptions): Promise<McpConnection> {
    const library = await loadMcpLibrary();
    const client = new library.Client(CLIENT_INFO, {
      capabilities: {},
      // A server's `outputSchema` patterns run on RE2: a catastrophic one cannot hold the main thread.
      jsonSchemaValidator: new LinearSchemaValidator(),
    });
    const transport = transportFor(config, options, library);
    let opened = false;
    let closedReason: string | undefined;
    transport.onerror = (error: Error) => {
      closedReason = error.message;
    };
    // The library reports protocol errors here; mca keeps the last as the reason if the connection then ends.
    client.onerror = (error: Error) => {
      closedReason = error.message;
    };
    client.onclose = () => {
      if (opened) options.onClosed(closedReason ?? stderrOf(transport) ?? 'the connection closed');
    };
    client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());
    client.setNotificationHandler('notifications/resources/list_changed', () => options.onListChanged?.('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => options.onListChanged?.('prompts'));
    const connection = new McpConnection(config, client, transport);
    const stop = (): void => void connection.close();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      if (options.signal?.aborted) throw new Error('mca is closing');
      await withTimeout(client.connect(transport), options.timeoutMs, `no answer within ${options.timeoutMs} ms`);
    } catch (error) {
      await connection.close();
      if (config.type !== 'stdio' && isSignInNeeded(error, library)) throw new McpNeedsSignInError(config.name);
      const why = error instanceof Error ? error.message : String(error);
      const tail = stderrOf(transport);
      throw new Error(tail ? `${why} (stderr: ${tail})` : why);
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
    opened = true;
    return connection;
  }

  /** The server's tools (every page, at most MAX_TOOLS_PER_SERVER). */
  async listTools(timeoutMs: number): Promise<{ tools: Tool[]; dropped: number }> {
    const listed = this.client.listTools(undefined, { timeout: timeoutMs, cacheMode: 'bypass' });
    const library = await loadMcpLibrary();
    const { tools } = await listed.catch((error: unknown) => {
      // A server may take the handshake without a token and ask for one only here.
      throw this.config.type !== 'stdio' && isSignInNeeded(error, library)
        ? new McpNeedsSignInError(this.config.name)
        : error;
    });
    return { tools: tools.slice(0, MAX_TOOLS_PER_SERVER), dropped: Math.max(0, tools.length - MAX_TOOLS_PER_SERVER) };
  }

  /** `name@version` the server reported at the handshake ('' when it reported none). */
  serverVersion(): string {
    const info = this.client.getServerVersion();
    return info ? `${info.name}@${info.version}` : '';
  }

  /** What the server said it offers at the handshake (resources, prompts); a server without one is skipped. */
  offers(what: 'resources' | 'prompts'): boolean {
    return this.client.getServerCapabilities()?.[what] !== undefined;
  }

  /**
   * The server's resources, at most MAX_LISTED_RESOURCES (`capped` says more were offered). The library walks the
   * pages (at most 64, its own bound; each message is bounded by the transport).
   */
  async listResources(timeoutMs: number): Promise<{ items: Resource[]; capped: boolean }> {
    const { resources } = await this.client.listResources(undefined, { timeout: timeoutMs, cacheMode: 'bypass' });
    return { items: resources.slice(0, MAX_LISTED_RESOURCES), capped: resources.length > MAX_LISTED_RESOURCES };
  }

  async listPrompts(timeoutMs: number): Promise<{ items: Prompt[]; capped: boolean }> {
    const { prompts } = await this.client.listPrompts(undefined, { timeout: timeoutMs, cacheMode: 'bypass' });
    return { items: prompts.slice(0, MAX_LISTED_PROMPTS), capped: prompts.length > MAX_LISTED_PROMPTS };
  }

  readResource(uri: string, timeoutMs: number): Promise<ReadResourceResult> {
    return this.client.readResource({ uri }, { timeout: timeoutMs, cacheMode: 'bypass' });
  }

  getPrompt(name: string, args: Record<string, string>, timeoutMs: number): Promise<GetPromptResult> {
    return this.client.getPrompt({ name, arguments: args }, { timeout: timeoutMs });
  }

  /**
   * Calls one tool. A remote server whose authorization is gone mid-session (its refresh refused, or a 401 a
   * refresh could not cure) rejects with McpNeedsSignInError, so the manager can mark it `needs-auth`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    try {
      return await this.client.callTool({ name, arguments: args }, { timeout: timeoutMs, signal });
    } catch (error) {
      if (error instanceof McpNeedsSignInError) throw error;
      if (this.config.type !== 'stdio' && isSignInNeeded(error, await loadMcpLibrary())) {
        throw new McpNeedsSignInError(this.config.name);
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      // closing a connection that already failed
    }
    await this.transport.close().catch(() => undefined);
  }
}

function transportFor(
  config: ServerConfig,
  options: ConnectOptions,
  library: Awaited<ReturnType<typeof loadMcpLibrary>>,
): Transport {
  if (config.type === 'stdio') {
    return new GroupStdioTransport(
      {
        command: config.command,
        args: config.args,
        env: config.env,
        cwd: options.projectRoot,
        ...(options.env ? { base: options.env } : {}),
        box: options.box,
      },
      library,
    );
  }
  const requestInit: RequestInit = { headers: { ...config.headers } };
  const url = new URL(config.url);
  const auth = transportAuth(config, options.mcaHome);
  if (config.type === 'sse') return new library.SSEClientTransport(url, { requestInit, ...auth });
  return new library.StreamableHTTPClientTransport(url, { requestInit, ...auth });
}

function stderrOf(transport: Transport): string | undefined {
  if (!(transport instanceof GroupStdioTransport)) return undefined;
  const lines = transport.stderr().trim().split('\n');
  const last = lines[lines.length - 1]?.trim();
  return last ? last.slice(0, 300) : undefined;
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
