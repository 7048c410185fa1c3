/**
 * The one HTTP client the model providers use, on node:http / node:https: POST a JSON body, get the status, the
 * headers and the body as bytes that arrive as the server sends them. It replaces Node's fetch, whose first use
 * loads undici (~14 ms, +12 MB) and makes the process wait ~80 ms at exit for the compile of undici's WASM parser.
 *
 * Contract:
 * - one keep-alive Agent per transport (per provider); Node unrefs idle pooled sockets, so they never keep the
 *   process alive, and a pooled socket the server already closed is retried once on a fresh one. A body the caller
 *   leaves early is read to its end in the background (briefly) so its connection can be reused;
 * - the AbortSignal destroys the request or the body (and its socket) at once; the failure is a TransportError
 *   with failure 'aborted';
 * - 307/308 are followed with the same method and body (at most 3 hops); credentials go only to the same origin
 *   (or its https upgrade). Other 3xx are a TransportError 'redirect' naming the Location;
 * - gzip, deflate and br bodies are decoded (node:zlib, loaded only then), although we never ask for them;
 * - HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms) are read once, when the transport is created
 *   (proxy-env.ts says how); a proxied target is reached through a CONNECT tunnel per pooled connection
 *   (proxy-tunnel.ts), and every failure on the way names the proxy but never its credentials.
 */
import http from 'node:http';
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { connectFailure, TransportError } from './transport-error.js';
import { decodedBody } from './http-body.js';
import { isMisconfigured, ProxySettings, type ProxyRoute } from './proxy-env.js';
// The CONNECT tunnel's code is imported by the first proxied request: without a proxy it never loads.
import type * as ProxyTunnel from './proxy-tunnel.js';

import type { HeaderLookup } from './header-lookup.js';

export type { HeaderLookup } from './header-lookup.js';

export interface HttpResponse {
  readonly status: number;
  readonly headers: HeaderLookup;
  /** The decoded body. Iterating throws a TransportError ('body_cut', 'decode' or 'aborted') if it breaks off. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The decoded body as UTF-8 text, at most TEXT_LIMIT_BYTES of it (an error page has no more to say). */
  text(): Promise<string>;
  /** Drops the rest of the body and its connection. */
  discard(): void;
}

export interface HttpPost {
  url: URL;
  headers: Readonly<Record<string, string>>;
  /** JSON text, or its UTF-8 bytes already encoded (json-body.ts). */
  body: string | Buffer;
  signal: AbortSignal;
}

export interface HttpTransport {
  /** Resolves once the response headers arrive; rejects with a TransportError. */
  post(request: HttpPost): Promise<HttpResponse>;
}

const MAX_REDIRECTS = 3;

/** What text() reads at most; the rest of a larger body is dropped with its connection. */
export const TEXT_LIMIT_BYTES = 1024 * 1024;

/** Sent only to the origin they were meant for. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'x-api-key',
  'proxy-authorization',
  'cookie',
]);

/** Errors of a pooled socket the server closed while it sat idle: the request never reached the server. */
const STALE_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

type RequestFunction = (url: URL, options: RequestOptions) => ClientRequest;

interface Client {
  request: RequestFunction;
  agent: Agent;
  /** The proxy its connections go through, named in its failures (`fail` words them). */
  proxied?: { proxy: ProxyRoute; fail: (error: unknown) => TransportError };
}

class ResponseHeaders implements HeaderLookup {
  constructor(private readonly raw: IncomingMessage['headers']) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

export function abortedTransportError(): TransportError {
  return new TransportError('aborted', 'the request was cancelled');
}

/** A redirect keeps credentials only to the same origin, or to the same host and port upgraded to https. */
function keepsCredentials(from: URL, to: URL): boolean {
  if (from.origin === to.origin) return true;
  return from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname;
}

function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

function redirectError(status: number, location: string | undefined, from: URL): TransportError {
  let target: string | undefined;
  try {
    target = location === undefined ? undefined : new URL(location, from).href;
  } catch {
    target = location;
  }
  const where = target === undefined ? 'without a Location' : `to ${target}`;
  return new TransportError('redirect', `the server redirected (${status}) ${where}`, {
    status,
    ...(target === undefined ? {} : { location: target }),
  });
}

export class NodeHttpTransport implements HttpTransport {
  private httpClient: Client | undefined;
  private httpsClient: Client | undefined;
  private proxiedHttpClient: Client | undefined;
  private proxiedHttpsClient: Client | undefined;
  private readonly proxies: ProxySettings;
  /** Undefined: proxy-tunnel.ts's default. */
  private readonly proxyAnswerTimeoutMs: number | undefined;

  /** `env` (the runtime's view, src/config/child-environment.ts) is read here, once: the proxy variables. */
  constructor(env: Readonly<Record<string, string | undefined>>, options: { proxyAnswerTimeoutMs?: number } = {}) {
    this.proxies = new ProxySettings(env);
    this.proxyAnswerTimeoutMs = options.proxyAnswerTimeoutMs;
  }

  /**
   * One GET, no redirect followed: a 3xx comes back as a response (its Location in the headers), for a caller
   * with its own redirect policy (WebFetch). Same pooling, proxy and abort contract as post().
   */
  async get(request: {
    url: URL;
    headers: Readonly<Record<string, string>>;
    signal: AbortSignal;
  }): Promise<HttpResponse> {
    const response = await this.send(request.url, request.headers, undefined, request.signal, true);
    return wrapResponse(response, request.signal);
  }

  async post(request: HttpPost): Promise<HttpResponse> {
    let url = request.url;
    let headers = request.headers;
    for (let hop = 0; ; hop++) {
      const response = await this.send(url, headers, request.body, request.signal, true);
      const status = response.statusCode ?? 0;
      if (status < 300 || status >= 400) return wrapResponse(response, request.signal);
      const location = response.headers.location;
      // The redirect's own body is of no use: the response and its connection are dropped.
      response.destroy();
      if ((status !== 307 && status !== 308) || location === undefined || hop >= MAX_REDIRECTS) {
        throw redirectError(status, location, url);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw redirectError(status, location, url);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw redirectError(status, location, url);
      if (!keepsCredentials(url, next)) headers = withoutCredentials(headers);
      url = next;
    }
  }

  private async client(url: URL): Promise<Client> {
    const proxy = this.proxies.choose(url);
    if (isMisconfigured(proxy)) throw new TransportError('proxy_setting', proxy.problem);
    if (proxy !== undefined) return this.proxiedClient(url, proxy);
    if (url.protocol === 'http:') {
      this.httpClient ??= { request: http.request, agent: new http.Agent({ keepAlive: true }) };
      return this.httpClient;
    }
    if (url.protocol === 'https:') {
      // Loaded on first use: TLS costs start-up time that a loopback or local server never needs.
      const https = await import('node:https');
      this.httpsClient ??= { request: https.request, agent: new https.Agent({ keepAlive: true }) };
      return this.httpsClient;
    }
    throw new TransportError('protocol', `${url.href} is not an http:// or https:// URL`, { location: url.href });
  }

  /** One client per protocol through the proxy (one proxy per protocol: the environment names one each). */
  private async proxiedClient(url: URL, proxy: ProxyRoute): Promise<Client> {
    const tunnel: typeof ProxyTunnel = await import('./proxy-tunnel.js');
    const answerTimeoutMs = this.proxyAnswerTimeoutMs ?? tunnel.DEFAULT_PROXY_ANSWER_TIMEOUT_MS;
    const proxied = { proxy, fail: (error: unknown) => tunnel.failureThroughProxy(error, proxy) };
    if (url.protocol === 'http:') {
      this.proxiedHttpClient ??= {
        request: http.request,
        agent: tunnel.tunnellingHttpAgent(proxy, answerTimeoutMs),
        proxied,
      };
      return this.proxiedHttpClient;
    }
    const https = await import('node:https');
    this.proxiedHttpsClient ??= {
      request: https.request,
      agent: await tunnel.tunnellingHttpsAgent(proxy, answerTimeoutMs),
      proxied,
    };
    return this.proxiedHttpsClient;
  }

  /** One request; resolves at the response headers. A stale pooled socket is retried once on a fresh one. */
  private async send(
    url: URL,
    headers: Readonly<Record<string, string>>,
    /** Undefined: a GET without a body. */
    body: string | Buffer | undefined,
    signal: AbortSignal,
    mayRetryStale: boolean,
  ): Promise<IncomingMessage> {
    if (signal.aborted) throw abortedTransportError();
    // Encoded once: the length header and the socket take the same bytes (a long session's request is ~0.5 MB, and
    // measuring a string then writing it encoded it twice per request).
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const { request, agent, proxied } = await this.client(url);
    const failed = (error: unknown): TransportError =>
      proxied === undefined ? connectFailure(error) : proxied.fail(error);
    return new Promise<IncomingMessage>((resolve, reject) => {
      let settled = false;
      let req: ClientRequest;
      try {
        req = request(url, {
          method: bytes === undefined ? 'GET' : 'POST',
          agent,
          headers: bytes === undefined ? headers : { ...headers, 'content-length': String(bytes.length) },
        });
      } catch (error) {
        // A header Node refuses (a control character in a key) throws here; its message names the header only.
        reject(failed(error));
        return;
      }
      const onAbort = (): void => {
        req.destroy(abortedTransportError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      // The signal may have fired while the https module loaded.
      if (signal.aborted) onAbort();
      req.on('response', (response) => {
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // After the response an error belongs to the body, which reports it itself.
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(abortedTransportError());
        else if (mayRetryStale && req.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '')) {
          resolve(this.send(url, headers, bytes, signal, false));
        } else reject(failed(error));
      });
      if (bytes === undefined) req.end();
      else req.end(bytes);
    });
  }
}

function wrapResponse(response: IncomingMessage, signal: AbortSignal): HttpResponse {
  const onAbort = (): void => {
    response.destroy(abortedTransportError());
  };
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  // Once the caller is done with the body the abort has nothing left to stop, and must not kill the pooled socket.
  const release = (): void => signal.removeEventListener('abort', onAbort);
  response.once('close', release);
  const body = decodedBody(response, release);
  return {
    status: response.statusCode ?? 0,
    headers: new ResponseHeaders(response.headers),
    body,
    async text(): Promise<string> {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of body) {
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size >= TEXT_LIMIT_BYTES) {
          response.destroy();
          break;
        }
      }
      return Buffer.concat(chunks).subarray(0, TEXT_LIMIT_BYTES).toString('utf8');
    },
    discard(): void {
      release();
      response.destroy();
    },
  };
}
