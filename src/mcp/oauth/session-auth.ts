/**
 * The token a session sends to a signed-in remote server (the transport's `AuthProvider`):
 * - before each request (the handshake, and every call of a long session), an access token that is expired or
 *   expires within REFRESH_MARGIN_MS is refreshed with the refresh token first, rather than spent on a 401;
 * - on a 401 for the token just sent, it is refreshed and the request retried once (the transport's rule);
 * - each refresh runs under the sign-in file's cross-process lock (token-lock.ts) and re-reads the file once the
 *   lock is held: when another mca process refreshed meanwhile, its token is used and no second refresh is made
 *   (a refresh token is often single-use);
 * - a refresh the authorization server refuses (`invalid_grant`, `invalid_client`, …) deletes the spent tokens (only
 *   if they are still the ones on disk) and becomes McpNeedsSignInError: the server shows "needs sign-in" with the
 *   `mca mcp login` hint. A refresh that fails otherwise (the server unreachable, a 5xx) is McpSignInError, one line;
 *   the tokens stay for the next try. Nothing here opens a browser.
 * The refresh uses the discovery kept at sign-in (authorization server, its metadata, the resource); a file
 * without it is discovered again through the library's `auth()`.
 */
import type {
  AuthProvider,
  FetchLike,
  OAuthClientInformationMixed,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { loadMcpLibrary } from '../load-client.js';
import type { AuthStore, StoredAuth } from './auth-store.js';
import { McpNeedsSignInError, McpSignInError, safeText } from './errors.js';
import { scopeUnion, type McaOAuthProvider } from './provider.js';
import { withFileLock } from './token-lock.js';

/** A token expiring within this is refreshed before it is sent (a request in flight must not outlive it). */
export const REFRESH_MARGIN_MS = 60_000;

/** True when the stored access token has a known lifetime that ends within `marginMs` of `now`. */
export function expiresSoon(auth: StoredAuth, now: number, marginMs = REFRESH_MARGIN_MS): boolean {
  const seconds = auth.tokens?.expires_in;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || auth.tokensSavedAt === undefined) return false;
  return auth.tokensSavedAt + seconds * 1000 - marginMs <= now;
}

export interface SessionAuthOptions {
  store: AuthStore;
  provider: McaOAuthProvider;
  serverUrl: string;
  /** The bounded fetch for the authorization server's endpoints. */
  fetch: FetchLike;
  now?: () => number;
}

export class SessionAuth implements AuthProvider {
  /** The access token this provider last handed to the transport. */
  private sent: string | undefined;

  constructor(private readonly options: SessionAuthOptions) {}

  async token(): Promise<string | undefined> {
    const now = this.options.now ?? Date.now;
    let auth = this.options.store.read();
    if (auth.tokens?.refresh_token && expiresSoon(auth, now())) {
      await this.refresh((current) => expiresSoon(current, now()));
      auth = this.options.store.read();
    }
    this.sent = auth.tokens?.access_token;
    return this.sent;
  }

  /** The server refused the token: refresh it unless another process already replaced it. */
  async onUnauthorized(): Promise<void> {
    const sent = this.sent;
    await this.refresh((current) => current.tokens?.access_token === sent);
  }

  private needsSignIn(): McpNeedsSignInError {
    return new McpNeedsSignInError(this.options.store.server.name);
  }

  /** Under the file lock: re-reads, and refreshes only when `stillNeeded` says the file still holds the old token. */
  private refresh(stillNeeded: (current: StoredAuth) => boolean): Promise<void> {
    const { store } = this.options;
    return withFileLock(store.file, async () => {
      const current = store.read();
      if (!current.tokens) throw this.needsSignIn();
      if (!stillNeeded(current)) return;
      if (!current.tokens.refresh_token) throw this.needsSignIn();
      await this.refreshNow(current, current.tokens.refresh_token);
    });
  }

  private async refreshNow(current: StoredAuth, refreshToken: string): Promise<void> {
    const { store, provider, serverUrl, fetch } = this.options;
    const library = await loadMcpLibrary();
    const discovery = current.discovery;
    const client = provider.clientInformation() as OAuthClientInformationMixed | undefined;
    let tokens: StoredOAuthTokens;
    try {
      if (!discovery?.authorizationServerUrl || !client) {
        // No discovery kept (an older file): the library discovers and refreshes; a refusal ends in a redirect,
        // which the non-interactive provider turns into McpNeedsSignInError.
        const result = await library.auth(provider, { serverUrl, fetchFn: fetch });
        if (result !== 'AUTHORIZED') throw this.needsSignIn();
        return;
      }
      const selected = await library.selectResourceURL(serverUrl, provider, discovery.resourceMetadata);
      const resource = selected && discovery.resourceMetadata ? discovery.resourceMetadata.resource : selected;
      tokens = await library.refreshAuthorization(discovery.authorizationServerUrl, {
        ...(discovery.authorizationServerMetadata ? { metadata: discovery.authorizationServerMetadata } : {}),
        clientInformation: client,
        refreshToken,
        ...(resource ? { resource } : {}),
        fetchFn: fetch,
      });
    } catch (error) {
      if (error instanceof McpNeedsSignInError) throw error;
      if (library.OAuthError.isInstance(error) && refusedGrant(error.code, library.OAuthErrorCode)) {
        // The refresh token is spent or revoked: drop the tokens (they are still the ones on disk: we hold the lock).
        store.update((auth) => {
          delete auth.tokens;
          delete auth.tokensSavedAt;
        });
        throw this.needsSignIn();
      }
      const text = error instanceof Error ? error.message : String(error);
      throw new McpSignInError(store.redact(safeText(`refreshing the sign-in failed: ${text}`, 300)));
    }
    provider.saveTokens(tokens);
  }
}

function refusedGrant(
  code: string,
  codes: { InvalidGrant: string; InvalidClient: string; UnauthorizedClient: string },
) {
  return code === codes.InvalidGrant || code === codes.InvalidClient || code === codes.UnauthorizedClient;
}

/** At most this much requested scope is kept from a server's 403 (its header is untrusted). */
const MAX_STEP_UP_SCOPE_CHARS = 1000;

/** The `scope` of a `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` challenge, if well formed. */
export function challengedScope(header: string): string | undefined {
  const scope = /\bscope="([^"]*)"/i.exec(header)?.[1]?.trim();
  // RFC 6749 §3.3 scope tokens: printable ASCII except space, '"' and '\\'.
  if (
    !scope ||
    scope.length > MAX_STEP_UP_SCOPE_CHARS ||
    !/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(scope)
  ) {
    return undefined;
  }
  return scope;
}

/**
 * The transport's fetch, wrapped so a 403 `insufficient_scope` from the server becomes the sign-in hint: a session
 * never opens a browser, so the wider scope the server named is kept in the sign-in file and the next
 * `mca mcp login` asks for it (with what it asked before).
 */
export function stepUpAsSignIn(store: AuthStore, serverUrl: string, base: FetchLike): FetchLike {
  const server = new URL(serverUrl);
  return async (input, init) => {
    const response = await base(input, init);
    const target = new URL(input);
    if (
      response.status === 403 &&
      target.origin === server.origin &&
      /insufficient_scope/i.test(response.headers.get('www-authenticate') ?? '')
    ) {
      await response.body?.cancel().catch(() => undefined);
      const scope = challengedScope(response.headers.get('www-authenticate') ?? '');
      if (scope) {
        store.update((auth) => {
          const wider = scopeUnion(auth.stepUpScope ?? auth.tokens?.scope ?? '', scope);
          if (wider.length <= MAX_STEP_UP_SCOPE_CHARS) auth.stepUpScope = wider;
        });
      }
      throw new McpNeedsSignInError(store.server.name, true);
    }
    return response;
  };
}
