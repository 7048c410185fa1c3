/**
 * mca's `OAuthClientProvider` for the client library's `auth()` (discovery RFC 9728/8414, dynamic registration,
 * PKCE, refresh): everything it keeps goes to the AuthStore. Two uses:
 * - sign-in (`interactive`): the authorization URL goes to the person's browser (browser.ts) and the `state` sent
 *   is the one the loopback callback must bring back;
 * - connecting (no `interactive`): stored tokens are sent and refreshed, but a flow that would need the browser
 *   throws McpNeedsSignInError instead: a session never opens a browser nobody asked for.
 * A pre-registered client (`oauth.clientId`) is never registered dynamically.
 */
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../server-config.js';
import type { AuthStore } from './auth-store.js';
import { McpNeedsSignInError, McpSignInError, safeText } from './errors.js';

export const CLIENT_NAME = 'mca';

export interface ProviderOptions {
  store: AuthStore;
  settings: OAuthSettings | undefined;
  redirectUrl: string;
  /** Present during a sign-in the person started. */
  interactive?: {
    state: string;
    open: (url: URL) => Promise<void>;
  };
}

type Scope = 'all' | 'client' | 'tokens' | 'verifier' | 'discovery';

export class McaOAuthProvider implements OAuthClientProvider {
  /** The last authorization URL handed to the browser (sign-in only). */
  authorizationUrl: URL | undefined;

  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.settings?.scopes;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(scopes ? { scope: scopes } : {}),
    };
  }

  state(): string {
    if (!this.options.interactive) throw this.needsSignIn();
    return this.options.interactive.state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const auth = this.options.store.read();
    const clientId = this.options.settings?.clientId;
    if (clientId) return { client_id: clientId, ...(auth.clientSecret ? { client_secret: auth.clientSecret } : {}) };
    // A client registered for another callback address would be refused by the server: register again.
    if (this.options.interactive && auth.clientRedirectUrl !== this.options.redirectUrl) return undefined;
    return auth.client;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    if (this.options.settings?.clientId) return;
    this.options.store.update((auth) => {
      auth.client = client;
      auth.clientRedirectUrl = this.options.redirectUrl;
    });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.options.store.read().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.options.store.update((auth) => {
      // A refresh answer may leave the refresh token out: the old one stays valid (RFC 6749 §6).
      const refresh = tokens.refresh_token ?? auth.tokens?.refresh_token;
      auth.tokens = { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) };
      auth.tokensSavedAt = Date.now();
      delete auth.codeVerifier;
      // A sign-in (not a refresh) asked for the wider scope: it is granted or refused now, not carried further.
      if (this.options.interactive) delete auth.stepUpScope;
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.options.interactive) throw this.needsSignIn();
    // The URL came from the authorization server's metadata: only a web address may reach the browser launcher.
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new McpSignInError(`the authorization server's sign-in address is not http(s): ${safeText(url.protocol)}`);
    }
    // `oauth.scopes` pins the scope asked for, over what the server's challenge or metadata name (as in Claude Code).
    const pinned = this.options.settings?.scopes;
    const stepUp = this.options.store.read().stepUpScope;
    if (pinned) url.searchParams.set('scope', pinned);
    else if (stepUp) url.searchParams.set('scope', scopeUnion(url.searchParams.get('scope') ?? '', stepUp));
    this.authorizationUrl = url;
    await this.options.interactive.open(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    if (!this.options.interactive) return;
    this.options.store.update((auth) => {
      auth.codeVerifier = codeVerifier;
    });
  }

  codeVerifier(): string {
    const verifier = this.options.store.read().codeVerifier;
    if (!verifier) throw new McpSignInError('no sign-in is under way for this server (the PKCE verifier is missing)');
    return verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.options.store.update((auth) => {
      auth.discovery = state;
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.store.read().discovery;
  }

  invalidateCredentials(scope: Scope): void {
    this.options.store.update((auth) => {
      if (scope === 'all' || scope === 'tokens') {
        delete auth.tokens;
        delete auth.tokensSavedAt;
      }
      if (scope === 'all' || scope === 'client') {
        delete auth.client;
        delete auth.clientRedirectUrl;
      }
      if (scope === 'all' || scope === 'verifier') delete auth.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete auth.discovery;
    });
  }

  private needsSignIn(): McpNeedsSignInError {
    return new McpNeedsSignInError(this.options.store.server.name);
  }
}

/** The scopes of both space-separated lists, each once, in order of first appearance. */
export function scopeUnion(a: string, b: string): string {
  return [...new Set(`${a} ${b}`.split(' ').filter((scope) => scope !== ''))].join(' ');
}
