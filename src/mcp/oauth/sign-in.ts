/**
 * Signing in to one remote MCP server (`mca mcp login <name>`, and `/mcp` through `signIn`): connect with the
 * interactive provider; the server's 401 starts the library's flow (discovery, dynamic registration unless the
 * client is pre-registered, PKCE); the authorization URL goes to the browser (or is printed); the loopback
 * callback brings the code back with the right `state`; the library exchanges it; a second connection proves the
 * token works. Nothing secret is printed: messages pass `AuthStore.redact`. `signOut` deletes the stored sign-in.
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { positiveNumber } from '../../config/env-number.js';
import { randomBytes } from 'node:crypto';
import type { Client, FetchLike, Transport } from '@modelcontextprotocol/client';
import { loadMcpLibrary, type McpLibrary } from '../load-client.js';
import type { RemoteServerConfig, ServerConfig } from '../server-config.js';
import { AuthStore } from './auth-store.js';
import { boundedAuthFetch } from './bounded-fetch.js';
import { openBrowser } from './browser.js';
import { startCallbackServer } from './callback-server.js';
import { hasAuthorizationHeader, isSignInNeeded } from './connect-auth.js';
import { McpSignInError, safeText } from './errors.js';
import { McaOAuthProvider } from './provider.js';

/** How long the person has to finish the page in the browser (MCA_OAUTH_TIMEOUT_MS overrides). */
export const SIGN_IN_TIMEOUT_MS = 300_000;
/** Each connection attempt, and each request to the authorization server, within MCP_TIMEOUT (default 30 s). */
const CONNECT_TIMEOUT_MS = 30_000;

export interface SignInOptions {
  mcaHome: string;
  /** One line for the person: the URL to open, what happened. */
  print: (line: string) => void;
  /** A person is at a terminal (else the URL is only printed, unless MCA_BROWSER_COMMAND is set). */
  interactiveTerminal: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface SignInResult {
  /** One line for the person. */
  message: string;
  /** The file the sign-in is kept in. */
  file: string;
}

type AuthTransport = Transport & { finishAuth(params: URLSearchParams): Promise<void> };

function remote(config: ServerConfig): RemoteServerConfig {
  if (config.type === 'stdio') {
    throw new McpSignInError(`"${config.name}" is a stdio server: sign-in is for http and sse servers`);
  }
  if (hasAuthorizationHeader(config)) {
    throw new McpSignInError(`"${config.name}" sends its own Authorization header (headers): no sign-in is used`);
  }
  return config;
}

export async function signIn(config: ServerConfig, options: SignInOptions): Promise<SignInResult> {
  const server = remote(config);
  const env = options.env ?? sessionEnvironment();
  const store = new AuthStore(options.mcaHome, { name: server.name, url: server.url });
  const secret = env.MCP_CLIENT_SECRET;
  store.update((auth) => {
    // A new sign-in starts clean; a dynamic registration is kept (the provider drops it if the port changed).
    delete auth.tokens;
    delete auth.tokensSavedAt;
    delete auth.codeVerifier;
    delete auth.discovery;
    if (server.oauth?.clientId && secret) auth.clientSecret = secret;
  });
  const state = randomBytes(32).toString('base64url');
  const callback = await startCallbackServer({
    state,
    timeoutMs: positiveNumber(env.MCA_OAUTH_TIMEOUT_MS, SIGN_IN_TIMEOUT_MS),
    ...(server.oauth?.callbackPort ? { port: server.oauth.callbackPort } : {}),
  });
  const provider = new McaOAuthProvider({
    store,
    settings: server.oauth,
    redirectUrl: callback.redirectUrl,
    interactive: {
      state,
      open: async (url) => {
        options.print(`To sign in to "${server.name}", open this address in your browser:`);
        options.print(url.toString());
        const how = await openBrowser(url.toString(), { env, interactiveTerminal: options.interactiveTerminal });
        options.print(how === 'opened' ? 'Waiting for the browser sign-in…' : 'Waiting for the sign-in…');
      },
    },
  });
  const library = await loadMcpLibrary();
  const connectMs = positiveNumber(env.MCP_TIMEOUT, CONNECT_TIMEOUT_MS);
  const fetch = boundedAuthFetch(server.url, { timeoutMs: connectMs });
  try {
    const first = await tryConnect(library, server, provider, fetch, connectMs);
    if (first === 'connected') {
      return { message: `"${server.name}" did not ask for a sign-in: nothing to do`, file: store.file };
    }
    if (first.error !== undefined || !provider.authorizationUrl) {
      throw new McpSignInError(describe(first.error, store, `connecting to "${server.name}" failed`));
    }
    const params = await callback.wait();
    await first.transport.finishAuth(params).catch((error: unknown) => {
      throw new McpSignInError(describe(error, store, 'exchanging the sign-in code failed'));
    });
    const second = await tryConnect(library, server, provider, fetch, connectMs);
    if (second !== 'connected') {
      throw new McpSignInError(describe(second.error, store, `"${server.name}" still refuses the new token`));
    }
    return { message: `Signed in to "${server.name}".`, file: store.file };
  } finally {
    await callback.close();
  }
}

/**
 * `signIn` by server name, for `/mcp` (the manager's `authenticate` hook): `servers` are the configured ones (the
 * manager's). The caller reconnects the server afterwards.
 */
export function signInByName(
  name: string,
  servers: ReadonlyArray<ServerConfig>,
  options: SignInOptions,
): Promise<SignInResult> {
  const config = servers.find((server) => server.name === name);
  if (!config) return Promise.reject(new McpSignInError(`no MCP server "${safeText(name, 100)}" is configured`));
  return signIn(config, options);
}

/** Deletes the stored sign-in of `config`; true when there was one. */
export function signOut(config: ServerConfig, mcaHome: string): boolean {
  if (config.type === 'stdio') throw new McpSignInError(`"${config.name}" is a stdio server: it has no sign-in`);
  return new AuthStore(mcaHome, { name: config.name, url: config.url }).remove();
}

type Attempt = 'connected' | { transport: AuthTransport; error?: unknown };

/** One connection: 'connected' (then closed), or the transport to finish the flow on (`error` unless it is a 401). */
async function tryConnect(
  library: McpLibrary,
  server: RemoteServerConfig,
  provider: McaOAuthProvider,
  fetch: FetchLike,
  timeoutMs: number,
): Promise<Attempt> {
  const client: Client = new library.Client({ name: 'mca', version: '0.1.0' }, { capabilities: {} });
  const url = new URL(server.url);
  const transportOptions = { requestInit: { headers: { ...server.headers } }, authProvider: provider, fetch };
  const transport: AuthTransport =
    server.type === 'sse'
      ? new library.SSEClientTransport(url, transportOptions)
      : new library.StreamableHTTPClientTransport(url, transportOptions);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new McpSignInError(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    // Some servers answer the handshake without a token and ask for one from the first listing on.
    await Promise.race([client.connect(transport).then(() => client.listTools()), timeout]);
    await client.close().catch(() => undefined);
    return 'connected';
  } catch (error) {
    await client.close().catch(() => undefined);
    return isSignInNeeded(error, library) && !(error instanceof McpSignInError) ? { transport } : { transport, error };
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown, store: AuthStore, fallback: string): string {
  if (error === undefined) return fallback;
  const text = error instanceof Error ? error.message : String(error);
  return store.redact(safeText(`${fallback}: ${text}`, 300));
}
