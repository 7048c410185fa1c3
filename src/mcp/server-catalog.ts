/**
 * The resources and prompts of the connected MCP servers: listed once per server and cached (at most
 * MAX_LISTED_RESOURCES / MAX_LISTED_PROMPTS each), dropped when the server says its list changed or the server goes
 * away, and read or fetched on demand. A server that did not offer resources (or prompts) at the handshake is
 * skipped: an empty list, no request. A server still connecting is waited for (at most MCP_TIMEOUT).
 */
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import { McaError } from '../errors/mca-error.js';
import type { McpConnection } from './connection.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

export type CatalogErrorCode = 'MCP_SERVER_UNAVAILABLE' | 'MCP_NO_RESOURCES' | 'MCP_NO_PROMPTS' | 'MCP_REQUEST_FAILED';

/** A resource read or prompt fetch that could not be done; the message is one line. */
export class McpCatalogError extends McaError {
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface CatalogDeps {
  connection(name: string): McpConnection | undefined;
  /** Resolves once the servers starting with the session have connected or failed (bounded by MCP_TIMEOUT). */
  ready(): Promise<void>;
  timeoutMs: number;
  notice(line: string): void;
}

type Kind = 'resources' | 'prompts';

export class ServerCatalog {
  private readonly cached: Record<Kind, Map<string, Promise<unknown[]>>> = {
    resources: new Map(),
    prompts: new Map(),
  };

  constructor(private readonly deps: CatalogDeps) {}

  /** Drops a server's cached lists (both, or one kind): the next use lists again. */
  forget(name: string, kind?: Kind): void {
    for (const each of kind ? [kind] : (['resources', 'prompts'] as const)) this.cached[each].delete(name);
  }

  /** The server's resources; empty when it is not connected or offers none, or listing failed (one notice). */
  async resources(name: string): Promise<Resource[]> {
    return (await this.list(name, 'resources')) as Resource[];
  }

  async prompts(name: string): Promise<Prompt[]> {
    return (await this.list(name, 'prompts')) as Prompt[];
  }

  async readResource(name: string, uri: string): Promise<ReadResourceResult> {
    const connection = await this.connected(name);
    if (!connection.offers('resources')) {
      throw new McpCatalogError('MCP_NO_RESOURCES', `MCP server "${safeName(name)}" offers no resources`);
    }
    try {
      return await connection.readResource(uri, this.deps.timeoutMs);
    } catch (error) {
      throw new McpCatalogError(
        'MCP_REQUEST_FAILED',
        `reading ${safeName(uri)} from "${safeName(name)}" failed: ${messageOf(error)}`,
      );
    }
  }

  async getPrompt(name: string, prompt: string, args: Record<string, string>): Promise<GetPromptResult> {
    const connection = await this.connected(name);
    if (!connection.offers('prompts')) {
      throw new McpCatalogError('MCP_NO_PROMPTS', `MCP server "${safeName(name)}" offers no prompts`);
    }
    try {
      return await connection.getPrompt(prompt, args, this.deps.timeoutMs);
    } catch (error) {
      throw new McpCatalogError(
        'MCP_REQUEST_FAILED',
        `prompt ${safeName(prompt)} of "${safeName(name)}" failed: ${messageOf(error)}`,
      );
    }
  }

  /** The server's connection; one still connecting is waited for (deps.ready). */
  private async lookup(name: string): Promise<McpConnection | undefined> {
    const connection = this.deps.connection(name);
    if (connection) return connection;
    await this.deps.ready();
    return this.deps.connection(name);
  }

  private async connected(name: string): Promise<McpConnection> {
    const connection = await this.lookup(name);
    if (!connection)
      throw new McpCatalogError('MCP_SERVER_UNAVAILABLE', `MCP server "${safeName(name)}" is not connected`);
    return connection;
  }

  private list(name: string, kind: Kind): Promise<unknown[]> {
    const held = this.cached[kind].get(name);
    if (held) return held;
    const listing = this.fetch(name, kind);
    this.cached[kind].set(name, listing);
    // A failed listing is not kept: the next use tries again.
    void listing.then((items) => {
      if (items.length === 0 && this.cached[kind].get(name) === listing) this.cached[kind].delete(name);
    });
    return listing;
  }

  private async fetch(name: string, kind: Kind): Promise<unknown[]> {
    const connection = await this.lookup(name);
    if (!connection || !connection.offers(kind)) return [];
    try {
      const listed =
        kind === 'resources'
          ? await connection.listResources(this.deps.timeoutMs)
          : await connection.listPrompts(this.deps.timeoutMs);
      if (listed.capped) {
        this.deps.notice(
          `MCP server "${safeName(name)}" lists more than ${listed.items.length} ${kind}; the rest are left out`,
        );
      }
      return listed.items;
    } catch (error) {
      this.deps.notice(`MCP server "${safeName(name)}": listing its ${kind} failed: ${messageOf(error)}`);
      return [];
    }
  }
}

function messageOf(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const text = neutralizeControlSequences(raw.replace(/\s+/g, ' ').trim());
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A name a config or server chose, safe for a notice line. */
function safeName(text: string): string {
  return neutralizeControlSequences(text).slice(0, 200);
}
