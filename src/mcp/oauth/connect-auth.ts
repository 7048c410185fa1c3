/**
 * What a remote server's transport gets when it connects in a session: with a stored sign-in, SessionAuth over
 * mca's provider in its non-interactive form (the token is sent, refreshed before it expires or on a 401 under the
 * file's cross-process lock, and a refusal becomes McpNeedsSignInError: never a browser); without one, a provider with no token, so a 401 surfaces as the library's
 * UnauthorizedError, which the manager shows as "needs sign-in". A server configured with its own `Authorization`
 * header is left to that header. `isSignInNeeded` tells those errors apart from other failures.
 */
import type { AuthProvider, FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { McpLibrary } from '../load-client.js';
import type { RemoteServerConfig } from '../server-config.js';
import { AuthStore } from './auth-store.js';
import { boundedAuthFetch } from './bounded-fetch.js';
import { McpNeedsSignInError } from './errors.js';
import { McaOAuthProvider } from './provider.js';
import { SessionAuth, stepUpAsSignIn } from './session-auth.js';

/** Where a connect-time provider says its redirect would go (never used: it never starts a browser flow). */
const UNUSED_REDIRECT = 'http://127.0.0.1/callback';

export interface TransportAuth {
  authProvider?: AuthProvider | OAuthClientProvider;
  fetch?: FetchLike;
}

export function hasAuthorizationHeader(config: RemoteServerConfig): boolean {
  return Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
}

export function transportAuth(config: RemoteServerConfig, mcaHome: string | undefined): TransportAuth {
  if (mcaHome === undefined || hasAuthorizationHeader(config)) return {};
  const store = new AuthStore(mcaHome, { name: config.name, url: config.url });
  const stored = store.read();
  if (!stored.tokens) return { authProvider: { token: () => Promise.resolve(undefined) } };
  const provider = new McaOAuthProvider({
    store,
    settings: config.oauth,
    redirectUrl: stored.clientRedirectUrl ?? UNUSED_REDIRECT,
  });
  const fetch = boundedAuthFetch(config.url);
  return {
    authProvider: new SessionAuth({ store, provider, serverUrl: config.url, fetch }),
    fetch: stepUpAsSignIn(store, config.url, fetch),
  };
}

/** True when `error` means "this server wants a sign-in" (a 401 mca could not answer with a stored token). */
export function isSignInNeeded(error: unknown, library: McpLibrary): boolean {
  if (error instanceof McpNeedsSignInError) return true;
  if (library.UnauthorizedError.isInstance(error)) return true;
  const sdk = error as { code?: unknown } | null;
  return library.SdkHttpError.isInstance(error) && sdk?.code === library.SdkErrorCode.ClientHttpAuthentication;
}
