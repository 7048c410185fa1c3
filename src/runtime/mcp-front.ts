/**
 * What the fronts get from the runtime's MCP servers beyond tools: `@server:uri` resource mentions attached to a
 * prompt (resource-mentions.ts) and `@` completion offering `server:uri` entries next to project paths. Both are
 * absent without configured servers (nothing loads then). Every front's driver takes `mcpAttachments` through
 * openSession (src/driver/open-session.ts).
 */
import type { Runtime } from './create-runtime.js';
import { CHARS_PER_TOKEN } from '../mcp/result-limits.js';
import { mcpLimits } from './mcp-servers.js';
import { hasControlSequences } from '../text/terminal-safe.js';

export type Attachments = (prompt: string) => Promise<{ text: string; notices: string[] }>;

/** Cheap test before loading anything: does the prompt hold something like `@name:scheme:`? */
const MAYBE_MENTION = /@[A-Za-z0-9][\w.-]*:[A-Za-z][A-Za-z0-9+.-]*:/;

export function mcpAttachments(booted: Pick<Runtime, 'mcp'>): Attachments | undefined {
  const manager = booted.mcp;
  if (!manager) return undefined;
  const maxChars = mcpLimits().maxOutputTokens * CHARS_PER_TOKEN;
  return async (prompt) => {
    if (!MAYBE_MENTION.test(prompt)) return { text: prompt, notices: [] };
    const { attachResources } = await import('../mcp/resource-mentions.js');
    return await attachResources(
      prompt,
      {
        servers: () => manager.list().map((status) => status.name),
        read: (server, uri) => manager.catalog.readResource(server, uri),
      },
      maxChars,
    );
  };
}

/** At most this many `server:uri` entries are offered at once. */
const MAX_COMPLETIONS = 50;

/**
 * `@` completion: resource entries (`server:uri`) whose text starts with what was typed, then the project paths.
 * Resource lists come from the catalog's cache (listed once per server, again after `list_changed`). A URI with
 * whitespace or control characters cannot be typed back as a mention and is not offered.
 */
export function withResourceCompletion(
  booted: Runtime,
  paths: (prefix: string) => Promise<string[]>,
): (prefix: string) => Promise<string[]> {
  const manager = booted.mcp;
  if (!manager) return paths;
  return async (prefix) => {
    const connected = manager.list().filter((status) => status.state === 'connected');
    const colon = prefix.indexOf(':');
    const candidates = connected.filter((status) =>
      colon < 0 ? status.name.startsWith(prefix) : status.name === prefix.slice(0, colon),
    );
    const entries: string[] = [];
    for (const status of candidates) {
      for (const resource of await manager.catalog.resources(status.name)) {
        const entry = `${status.name}:${resource.uri}`;
        if (entries.length >= MAX_COMPLETIONS) break;
        if (!entry.startsWith(prefix) || /\s/.test(entry) || hasControlSequences(entry)) continue;
        entries.push(entry);
      }
    }
    if (colon >= 0) return entries;
    // A bare `@` shows the project first; typing a server's first letters brings its resources up front.
    const files = await paths(prefix);
    return (prefix === '' ? [...files, ...entries] : [...entries, ...files]).slice(0, MAX_COMPLETIONS);
  };
}
