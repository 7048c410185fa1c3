/**
 * A loopback OAuth 2.1 authorization server and, on the same port, an auth-checking proxy in front of real MCP
 * servers (server-everything over streamable HTTP at /mcp, and over legacy SSE at /sse + /message): each answers 401 with an RFC 9728 `resource_metadata` pointer
 * unless the request carries a live bearer token it issued, and otherwise is piped to the upstream server. The
 * authorization server publishes RFC 8414 metadata, registers clients dynamically (RFC 7591), checks PKCE S256 and
 * the registered redirect URI at /authorize (redirecting at once: there is no person to ask), and issues access and
 * refresh tokens (each refresh token works once: a second use is `invalid_grant`). `expireTokens()` makes every
 * issued access token stale (what time would do, without waiting); `revokeRefreshTokens()` spends every refresh
 * token; `refreshDelayMs` holds each refresh answer back (so two clients refreshing at once overlap); `stepUpScope` answers
 * every authorized MCP POST 403 `insufficient_scope`; `log` is the
 * order of what the server saw (`grant:<type>`, `mcp:ok`, `mcp:401`).
 * `mode` makes it hostile for one test: a forged `state`, a redirect off loopback, hanging or flooding metadata.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback, readBody, writeJson } from './loopback-http.js';

export type HostileMode = 'none' | 'forged-state' | 'off-loopback' | 'hanging-metadata' | 'huge-metadata';

export interface OAuthProtectedMcp {
  /** The streamable-HTTP endpoint. */
  url: string;
  /** The legacy SSE endpoint (when an SSE upstream was given). */
  sseUrl: string;
  /** Grants seen at /token, in order (`authorization_code`, `refresh_token`). */
  grants: string[];
  /** What each /authorize request carried. */
  authorizations: Array<{ clientId: string; redirectUri: string; scope: string | null }>;
  /** Client registrations seen at /register. */
  registrations: () => number;
  /** A client known without registration (a pre-registered one), with its one redirect URI. */
  preRegister(clientId: string, redirectUri: string): void;
  /** Requests to /mcp that carried a valid token. */
  authorizedCalls: () => number;
  expireTokens(): void;
  revokeRefreshTokens(): void;
  /** What the server saw, in order: `grant:<grant type>`, `mcp:ok` (a request with a live token), `mcp:401`. */
  log: string[];
  refreshDelayMs: number;
  /** When set, every authorized POST to /mcp is answered 403 `insufficient_scope` naming this scope (step-up). */
  stepUpScope: string | undefined;
  mode: HostileMode;
  close(): Promise<void>;
}

interface Pending {
  clientId: string;
  redirectUri: string;
  challenge: string;
}

const token = (): string => randomBytes(24).toString('base64url');

/** Upstream MCP servers: `http` serves /mcp (streamable HTTP), `sse` serves /sse and /message (legacy SSE). */
export async function startOAuthProtectedMcp(upstream: { http: number; sse?: number }): Promise<OAuthProtectedMcp> {
  const clients = new Map<string, string[]>();
  const authorizations: OAuthProtectedMcp['authorizations'] = [];
  let registrations = 0;
  const codes = new Map<string, Pending>();
  const live = new Set<string>();
  const refreshTokens = new Map<string, string>();
  const grants: string[] = [];
  let authorized = 0;
  let base = '';
  const state: { mode: HostileMode; refreshDelayMs: number; stepUpScope: string | undefined } = {
    mode: 'none',
    refreshDelayMs: 0,
    stepUpScope: undefined,
  };
  const log: string[] = [];

  const issue = (res: ServerResponse, clientId: string): void => {
    const access = `at-${token()}`;
    const refresh = `rt-${token()}`;
    live.add(access);
    refreshTokens.set(refresh, clientId);
    writeJson(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      writeJson(res, 200, { resource: `${base}${url.pathname.slice(37) || '/'}`, authorization_servers: [base] });
      return;
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      if (state.mode === 'hanging-metadata') return; // never answers
      if (state.mode === 'huge-metadata') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"issuer":"${base}","padding":"${'x'.repeat(4 * 1024 * 1024)}"}`);
        return;
      }
      writeJson(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
      return;
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      registrations += 1;
      const body = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
      const clientId = `client-${token()}`;
      clients.set(clientId, body.redirect_uris ?? []);
      writeJson(res, 201, { ...body, client_id: clientId, token_endpoint_auth_method: 'none' });
      return;
    }
    if (url.pathname === '/authorize') {
      const query = url.searchParams;
      const clientId = query.get('client_id') ?? '';
      const redirectUri = query.get('redirect_uri') ?? '';
      authorizations.push({ clientId, redirectUri, scope: query.get('scope') });
      if (!clients.get(clientId)?.includes(redirectUri) || query.get('code_challenge_method') !== 'S256') {
        writeJson(res, 400, { error: 'invalid_request' });
        return;
      }
      const code = `code-${token()}`;
      codes.set(code, { clientId, redirectUri, challenge: query.get('code_challenge') ?? '' });
      const target = new URL(state.mode === 'off-loopback' ? 'http://sign-in.example.invalid/callback' : redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', state.mode === 'forged-state' ? 'forged' : (query.get('state') ?? ''));
      res.writeHead(302, { location: target.href });
      res.end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const grant = form.get('grant_type') ?? '';
      grants.push(grant);
      log.push(`grant:${grant}`);
      if (grant === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!pending || pending.challenge !== challenge || pending.redirectUri !== form.get('redirect_uri')) {
          writeJson(res, 400, { error: 'invalid_grant' });
          return;
        }
        issue(res, pending.clientId);
        return;
      }
      const clientId = refreshTokens.get(form.get('refresh_token') ?? '');
      if (grant !== 'refresh_token' || clientId === undefined) {
        writeJson(res, 400, { error: 'invalid_grant' });
        return;
      }
      refreshTokens.delete(form.get('refresh_token') ?? '');
      if (state.refreshDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.refreshDelayMs));
      issue(res, clientId);
      return;
    }
    if (url.pathname === '/mcp' || url.pathname === '/sse' || url.pathname === '/message') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !live.has(bearer)) {
        if (url.pathname === '/mcp') log.push('mcp:401');
        const resource = url.pathname === '/mcp' ? '/mcp' : '/sse';
        const pointer = `${base}/.well-known/oauth-protected-resource${resource}`;
        writeJson(
          res,
          401,
          { error: 'invalid_token' },
          { 'www-authenticate': `Bearer resource_metadata="${pointer}"` },
        );
        return;
      }
      if (url.pathname === '/mcp' && req.method === 'POST' && state.stepUpScope !== undefined) {
        log.push('mcp:403');
        const challenge = `Bearer error="insufficient_scope", scope="${state.stepUpScope}"`;
        writeJson(res, 403, { error: 'insufficient_scope' }, { 'www-authenticate': challenge });
        return;
      }
      authorized += 1;
      if (url.pathname === '/mcp') log.push('mcp:ok');
      await proxy(req, res, url.pathname === '/mcp' ? upstream.http : (upstream.sse ?? upstream.http));
      return;
    }
    writeJson(res, 404, { error: 'not_found' });
  };

  const server = await listenLoopback('oauth-protected-mcp', handle, (res) => writeJson(res, 500, {}));
  base = `http://127.0.0.1:${server.port}`;
  return {
    url: `${base}/mcp`,
    sseUrl: `${base}/sse`,
    grants,
    authorizations,
    registrations: () => registrations,
    preRegister: (clientId, redirectUri) => void clients.set(clientId, [redirectUri]),
    authorizedCalls: () => authorized,
    expireTokens: () => live.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    log,
    get refreshDelayMs() {
      return state.refreshDelayMs;
    },
    set refreshDelayMs(ms: number) {
      state.refreshDelayMs = ms;
    },
    get stepUpScope() {
      return state.stepUpScope;
    },
    set stepUpScope(scope: string | undefined) {
      state.stepUpScope = scope;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: HostileMode) {
      state.mode = mode;
    },
    close: () => server.close(),
  };
}

/** Pipes the request to the upstream MCP server (streaming both ways: its answers may be event streams). */
function proxy(req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const { authorization: _dropped, host: _host, ...headers } = req.headers;
    const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => resolve());
      answer.on('error', reject);
    });
    upstream.on('error', reject);
    req.pipe(upstream);
  });
}
