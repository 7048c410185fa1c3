/**
 * The sign-in errors: each message is one line a person can act on and never carries a token, a code, a client
 * secret or the authorization server's own prose unfiltered (it may be hostile; `safeText` bounds it).
 */
import { McaError } from '../../errors/mca-error.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';

/**
 * The server answered 401 and no stored sign-in could be used: the person must run `mca mcp login <name>`.
 * `scopeStepUp`: the server answered 403 `insufficient_scope` instead; the sign-in still works for what it covers,
 * so a session keeps the server (only that call fails) while a handshake refused this way is `needs-auth`.
 */
export class McpNeedsSignInError extends McaError {
  readonly code = 'MCP_NEEDS_SIGN_IN' as const;
  constructor(
    readonly server: string,
    readonly scopeStepUp = false,
  ) {
    super(`needs sign-in: run \`mca mcp login ${server}\``);
  }
}

/** A sign-in (or a token refresh) did not complete: the reason, as one line. */
export class McpSignInError extends McaError {
  readonly code = 'MCP_SIGN_IN_FAILED' as const;
}

/** The stored sign-in file could not be read or written. */
export class McpAuthStoreError extends McaError {
  readonly code = 'MCP_AUTH_STORE' as const;
}

/** Text from a server or the network, as one short line without control sequences. */
export function safeText(text: string, max = 200): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
