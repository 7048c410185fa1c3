/**
 * The tool definitions of one server's listing (mcp-manager.ts registers them): each tool's model name made unique
 * against the names already taken, then built by mcpToolDefinition; a tool that cannot be offered comes back with
 * the reason instead.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../tools/registry/define-tool.js';
import type { McpConnection } from './connection.js';
import type { McpLimits } from './limits.js';
import { mcpToolDefinition } from './mcp-tool.js';
import type { McpNeedsSignInError } from './oauth/errors.js';
import type { ServerStatus } from './server-status.js';
import { mcpToolName } from './tool-names.js';

export interface ListingOptions {
  server: string;
  limits: McpLimits;
  timeoutMs: number;
  /** Model names in use; each tool offered adds its own. */
  taken: Set<string>;
  connection: () => McpConnection | undefined;
  onSignInNeeded: (error: McpNeedsSignInError) => void;
  /**
   * For tools remembered from an earlier session: what a call waits for, and the server's status (once it has
   * connected, a tool it no longer lists fails clearly; a server that failed says so through the missing connection).
   */
  remembered?: { whenReady: () => Promise<void>; status: ServerStatus };
}

export type ListedTool = { ok: true; tool: ToolDefinition } | { ok: false; remoteName: string; message: string };

export function listingDefinitions(tools: readonly Tool[], options: ListingOptions): ListedTool[] {
  const { server, limits, timeoutMs, taken, remembered } = options;
  return tools.map((tool): ListedTool => {
    const modelName = mcpToolName(server, tool.name, taken);
    const built = mcpToolDefinition({
      name: modelName,
      server,
      tool,
      limits,
      timeoutMs,
      connection: options.connection,
      onSignInNeeded: options.onSignInNeeded,
      ...(remembered
        ? {
            whenReady: remembered.whenReady,
            stillOffered: () => remembered.status.state !== 'connected' || remembered.status.tools.includes(modelName),
          }
        : {}),
    });
    if (!built.ok) return { ok: false, remoteName: tool.name, message: built.message };
    taken.add(modelName);
    return built;
  });
}
