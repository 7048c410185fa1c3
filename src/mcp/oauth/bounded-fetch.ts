/**
 * The fetch the MCP transport uses when sign-in is possible. Requests to the MCP server's own URL pass unchanged
 * (its event streams may be long); every other request is an OAuth one (metadata discovery, registration, token)
 * and is bounded: at most AUTH_REQUEST_TIMEOUT_MS each and at most MAX_AUTH_BODY_BYTES of answer, so an
 * authorization server that hangs or floods ends the sign-in with one line instead of holding mca.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { McpSignInError } from './errors.js';

export const AUTH_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_AUTH_BODY_BYTES = 1024 * 1024;

function sameResource(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname;
}

export function boundedAuthFetch(
  serverUrl: string,
  limits: { timeoutMs?: number; maxBytes?: number } = {},
  base: FetchLike = fetch,
): FetchLike {
  const server = new URL(serverUrl);
  const timeoutMs = limits.timeoutMs ?? AUTH_REQUEST_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? MAX_AUTH_BODY_BYTES;
  return async (input, init) => {
    const target = new URL(input);
    if (sameResource(target, server)) return base(input, init);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } catch (error) {
      if (timeout.aborted) throw new McpSignInError(`${target.host} did not answer within ${timeoutMs / 1000} s`);
      throw error;
    }
    const body = await readCapped(response, maxBytes, timeout, target.host, timeoutMs);
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function readCapped(
  response: Response,
  maxBytes: number,
  timeout: AbortSignal,
  host: string,
  timeoutMs: number,
): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        throw new McpSignInError(`${host} sent more than ${Math.round(maxBytes / 1024)} KiB in one answer`);
      }
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (timeout.aborted && !(error instanceof McpSignInError)) {
      throw new McpSignInError(`${host} did not finish its answer within ${timeoutMs / 1000} s`);
    }
    throw error;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
