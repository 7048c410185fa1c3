/**
 * WebFetch's request: GET over the project's node:http transport (proxy variables honoured), no credential of
 * mca's ever sent (a transport of its own, with only User-Agent and Accept headers), redirects followed only on
 * the same host (each hop checked again), at most `maxRedirects`; a redirect to another host ends the fetch and
 * is reported, so the model fetches that URL itself (and the person is asked about that domain). The body is read
 * up to `maxBytes` (the rest dropped with a note) within `timeoutMs` for the whole fetch.
 */
import { NodeHttpTransport, type HttpResponse } from '../../providers/http-transport.js';
import { TransportError } from '../../providers/transport-error.js';
import { addressProblem, hostOf } from './web-fetch-address.js';

export interface WebFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_WEB_FETCH_LIMITS: WebFetchLimits = Object.freeze({
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
});

export type FetchOutcome =
  | { kind: 'page'; url: string; status: number; contentType: string; bytes: Uint8Array; cut: boolean }
  | { kind: 'redirect'; from: string; to: string; status: number }
  | { kind: 'failed'; code: 'ACCESS_DENIED' | 'TIMEOUT' | 'EXECUTION_ERROR' | 'INVALID_PARAM'; message: string };

const HEADERS = {
  'user-agent': 'mca-webfetch/1 (terminal coding agent)',
  accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5',
};

/** One transport (its pooled connections) per environment: each runtime's proxy variables are its own. */
const transports = new WeakMap<object, NodeHttpTransport>();

function transportFor(env: Readonly<Record<string, string | undefined>>): NodeHttpTransport {
  let transport = transports.get(env);
  if (transport === undefined) {
    transport = new NodeHttpTransport(env);
    transports.set(env, transport);
  }
  return transport;
}

async function readCapped(response: HttpResponse, maxBytes: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > maxBytes) {
      response.discard();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

function failure(error: unknown, timedOut: boolean, timeoutMs: number): FetchOutcome {
  if (timedOut) {
    return { kind: 'failed', code: 'TIMEOUT', message: `the fetch did not finish within ${timeoutMs / 1000} s` };
  }
  const message = error instanceof TransportError ? error.message : (error as Error).message;
  return { kind: 'failed', code: 'EXECUTION_ERROR', message };
}

/** Fetches `start`; never throws. `signal` is the call's (Esc); the time cap is added here. */
export async function fetchPage(
  start: URL,
  options: {
    signal: AbortSignal;
    limits: WebFetchLimits;
    allowedPrivate: ReadonlySet<string>;
    /** The runtime's environment: the proxy variables. */
    env: Readonly<Record<string, string | undefined>>;
  },
): Promise<FetchOutcome> {
  const { limits } = options;
  const timer = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([options.signal, timer]);
  const transport = transportFor(options.env);
  let url = start;
  try {
    for (let hop = 0; ; hop++) {
      const problem = await addressProblem(url, options.allowedPrivate);
      if (problem) return { kind: 'failed', code: 'ACCESS_DENIED', message: problem };
      const response = await transport.get({ url, headers: HEADERS, signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        response.discard();
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return {
            kind: 'failed',
            code: 'EXECUTION_ERROR',
            message: `the server redirected to a bad URL: ${location}`,
          };
        }
        if (hostOf(next) !== hostOf(url) || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return { kind: 'redirect', from: url.href, to: next.href, status: response.status };
        }
        if (hop >= limits.maxRedirects) {
          return { kind: 'failed', code: 'EXECUTION_ERROR', message: `more than ${limits.maxRedirects} redirects` };
        }
        url = next;
        continue;
      }
      const { bytes, cut } = await readCapped(response, limits.maxBytes);
      const contentType = response.headers.get('content-type') ?? '';
      return { kind: 'page', url: url.href, status: response.status, contentType, bytes, cut };
    }
  } catch (error) {
    return failure(error, timer.aborted && !options.signal.aborted, limits.timeoutMs);
  }
}
