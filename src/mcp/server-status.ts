/**
 * What `/mcp`, `mca mcp list` and `mcp_status` show of one MCP server: its state (with why), how it is started, and
 * its model-facing tool names; and the outcome of a `/mcp` action.
 */
import type { ServerConfig } from './server-config.js';
import type { ServerGate } from './approval.js';

/**
 * `needs-auth`: a remote server answered 401 and no stored sign-in worked, or its authorization was withdrawn in
 * the middle of the session (the refresh refused): `mca mcp login <name>`, then Reconnect.
 */
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
  /** A project server's env and headers as the trust question shows them (server-exposure.ts), for `/mcp`. */
  readonly exposure?: readonly string[];
}

/** The outcome of a `/mcp` action, as one line for the person. */
export interface McpActionResult {
  ok: boolean;
  message: string;
}

export const PENDING_DETAIL: Record<Exclude<ServerGate, 'start'>, string> = {
  untrusted: 'the project is not trusted (mca trust)',
  pending: 'not approved yet: Enable it here (what it gets is listed below), or answer the question at the next start',
  disabled: 'listed in disabledMcpjsonServers',
};
