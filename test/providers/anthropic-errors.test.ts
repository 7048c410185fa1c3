import { describe, expect, it } from 'vitest';
import {
  errorFromEvent,
  errorFromResponse,
  oneLine,
  parseRetryAfter,
  scrubSecrets,
  toProviderError,
} from '../../src/providers/anthropic-errors.js';
import type { HeaderLookup } from '../../src/providers/http-transport.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import { isRetryWorthy, retryDelayMs, sleep, DEFAULT_BACKOFF } from '../../src/providers/retry-policy.js';
import { bodyFailure, connectFailure, TransportError } from '../../src/providers/transport-error.js';

const KEY = 'sk-ant-api03-abcdefghijklmnop';

/** Response headers as the transport hands them over: looked up by lower-cased name. */
function headers(values: Record<string, string> = {}): HeaderLookup {
  const lower = new Map(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}

/** An HTTP error answer in the API's shape: status, `{type:'error', error:{type, message}}` and headers. */
function apiError(status: number, type: string, message: string, extra: Record<string, string> = {}): ProviderError {
  const body = JSON.stringify({ type: 'error', error: { type, message } });
  return errorFromResponse(status, headers(extra), body, [KEY]);
}

describe('parseRetryAfter', () => {
  it('reads retry-after-ms first, then seconds, then an HTTP date', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'Retry-After': '2' }))).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers())).toBeUndefined();
  });
});

describe('scrubbing', () => {
  it('removes the given key and anything shaped like an Anthropic key, and flattens to one line', () => {
    expect(scrubSecrets(`key ${KEY} and sk-ant-other-1234567890`, [KEY])).toBe('key [redacted] and [redacted]');
    expect(oneLine('a\n  b\tc', [])).toBe('a b c');
  });
});

describe('errorFromResponse (an HTTP error answer)', () => {
  it('maps statuses to kinds', () => {
    expect(apiError(403, 'permission_error', 'nope').kind).toBe('auth');
    expect(apiError(429, 'rate_limit_error', 'slow down').kind).toBe('rate_limit');
    expect(apiError(529, 'overloaded_error', 'busy').kind).toBe('overloaded');
    expect(apiError(502, 'api_error', 'bad gateway').kind).toBe('server');
    expect(apiError(404, 'not_found_error', 'model: x').kind).toBe('bad_request');
    expect(apiError(413, 'request_too_large', 'too big').kind).toBe('bad_request');
    expect(apiError(422, 'invalid_request_error', 'odd').kind).toBe('bad_request');
    expect(apiError(408, 'timeout_error', 'slow').kind).toBe('timeout');
    expect(apiError(400, 'invalid_request_error', 'prompt is too long: 300000 tokens').kind).toBe('context_too_long');
  });

  it('keeps retry-after on the error and never leaks the key', () => {
    const error = apiError(429, 'rate_limit_error', `limit for ${KEY}`, { 'retry-after': '3' });
    expect(error.retryAfterMs).toBe(3000);
    expect(error.status).toBe(429);
    expect(error.message).toBe('Anthropic API rate limit reached (429): limit for [redacted]');
  });

  it('reads bodies that are not the API shape as the SDK rendered them: "<status> <body>", one line', () => {
    const html = errorFromResponse(502, headers(), '<html>\n<b>Bad gateway</b>\n</html>', [KEY]);
    expect(html).toMatchObject({ kind: 'server', status: 502 });
    expect(html.message).toBe('Anthropic API server error (502): 502 <html> <b>Bad gateway</b> </html>');
    expect(errorFromResponse(500, headers(), '', []).message).toBe(
      'Anthropic API server error (500): 500 status code (no body)',
    );
    expect(errorFromResponse(418, headers(), '{"message":"teapot"}', []).message).toBe(
      'Anthropic API rejected the request (418): 418 teapot',
    );
    expect(errorFromResponse(400, headers(), '{"detail":[1]}', []).message).toBe(
      'Anthropic API rejected the request (400): 400 {"detail":[1]}',
    );
  });
});

describe('errorFromEvent (an SSE error event inside a 200 stream)', () => {
  it('maps the error type to a kind without a status, and scrubs the key', () => {
    const data = (type: string, message: string): string => JSON.stringify({ type: 'error', error: { type, message } });
    const overloaded = errorFromEvent(data('overloaded_error', 'Overloaded'), headers(), []);
    expect(overloaded).toMatchObject({ kind: 'overloaded', status: undefined });
    expect(overloaded.message).toBe('Anthropic API is overloaded: Overloaded');
    expect(errorFromEvent(data('authentication_error', `bad ${KEY}`), headers(), [KEY]).message).toBe(
      'ANTHROPIC_API_KEY was rejected: bad [redacted]',
    );
    expect(errorFromEvent(data('invalid_request_error', 'prompt is too long'), headers(), []).kind).toBe(
      'context_too_long',
    );
    expect(errorFromEvent(data('api_error', 'boom'), headers(), []).kind).toBe('server');
    expect(errorFromEvent('not json', headers(), []).message).toBe('Anthropic API server error: not json');
  });
});

describe('toProviderError (what the transport throws)', () => {
  it('maps aborts, connection failures and unknown throwables', () => {
    expect(toProviderError(new TransportError('aborted', 'the request was cancelled'), []).kind).toBe('aborted');
    const refused = connectFailure(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    );
    expect(refused.failure).toBe('refused');
    const network = toProviderError(refused, []);
    expect(network.kind).toBe('network');
    expect(network.message).toBe('Could not reach the Anthropic API (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9).');
    const cut = toProviderError(bodyFailure(new Error('aborted'), false), []);
    expect(cut.kind).toBe('network');
    expect(cut.message).toBe(
      'Connection to the Anthropic API failed (the server closed the connection before the response was complete).',
    );
    expect(toProviderError(new TypeError('terminated'), []).kind).toBe('network');
  });

  it('classifies DNS and TLS failures and keeps the key out of the cause', () => {
    const dns = connectFailure(Object.assign(new Error('getaddrinfo ENOTFOUND api.example'), { code: 'ENOTFOUND' }));
    expect(dns.failure).toBe('dns');
    const tls = connectFailure(
      Object.assign(new Error(`self-signed certificate for ${KEY}`), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
    );
    expect(tls.failure).toBe('tls');
    const mapped = toProviderError(tls, [KEY]);
    expect(mapped.kind).toBe('network');
    expect(mapped.message).not.toContain(KEY);
    expect(mapped.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('turns a redirect it does not follow into one not_api line naming the Location', () => {
    const redirect = new TransportError('redirect', 'the server redirected (301) to https://new.example/v1/messages', {
      status: 301,
      location: 'https://new.example/v1/messages',
    });
    const error = toProviderError(redirect, [], 'http://old.example');
    expect(error.kind).toBe('not_api');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'The Anthropic API at http://old.example redirected (301) to https://new.example/v1/messages; set ANTHROPIC_BASE_URL to the address it should use.',
    );
  });
});

describe('retry policy', () => {
  it('retries only transient kinds and statuses', () => {
    expect(isRetryWorthy(new ProviderError('server', 'x', { status: 503 }))).toBe(true);
    expect(isRetryWorthy(new ProviderError('server', 'x', { status: 501 }))).toBe(false);
    expect(isRetryWorthy(new ProviderError('network', 'x'))).toBe(true);
    expect(isRetryWorthy(new ProviderError('auth', 'x', { status: 401 }))).toBe(false);
    expect(isRetryWorthy(new ProviderError('aborted', 'x'))).toBe(false);
  });

  it('doubles up to the cap, jitters downwards, and caps retry-after', () => {
    const fixed = { ...DEFAULT_BACKOFF, random: () => 0 };
    const error = new ProviderError('server', 'x', { status: 500 });
    expect([1, 2, 3, 4, 5, 6, 7].map((retry) => retryDelayMs(retry, error, fixed))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelayMs(1, error, { ...fixed, random: () => 0.999 })).toBeGreaterThanOrEqual(750);
    const wait = new ProviderError('rate_limit', 'x', { status: 429, retryAfterMs: 600_000 });
    expect(retryDelayMs(1, wait, fixed)).toBe(60_000);
  });

  it('sleep rejects with aborted when the signal fires', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});
