import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { oneLine, parseRetryAfter, scrubSecrets, toProviderError } from '../../src/providers/anthropic-errors.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import { isRetryWorthy, retryDelayMs, sleep, DEFAULT_BACKOFF } from '../../src/providers/retry-policy.js';

const KEY = 'sk-ant-api03-abcdefghijklmnop';

function apiError(status: number, type: string, message: string, headers: Record<string, string> = {}): APIError {
  return APIError.generate(status, { type: 'error', error: { type, message } }, undefined, new Headers(headers));
}

describe('parseRetryAfter', () => {
  it('reads retry-after-ms first, then seconds, then an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});

describe('scrubbing', () => {
  it('removes the given key and anything shaped like an Anthropic key, and flattens to one line', () => {
    expect(scrubSecrets(`key ${KEY} and sk-ant-other-1234567890`, [KEY])).toBe('key [redacted] and [redacted]');
    expect(oneLine('a\n  b\tc', [])).toBe('a b c');
  });
});

describe('toProviderError', () => {
  it('maps statuses to kinds', () => {
    expect(toProviderError(apiError(403, 'permission_error', 'nope'), []).kind).toBe('auth');
    expect(toProviderError(apiError(429, 'rate_limit_error', 'slow down'), []).kind).toBe('rate_limit');
    expect(toProviderError(apiError(529, 'overloaded_error', 'busy'), []).kind).toBe('overloaded');
    expect(toProviderError(apiError(502, 'api_error', 'bad gateway'), []).kind).toBe('server');
    expect(toProviderError(apiError(404, 'not_found_error', 'model: x'), []).kind).toBe('bad_request');
    expect(toProviderError(apiError(413, 'request_too_large', 'too big'), []).kind).toBe('bad_request');
    expect(toProviderError(apiError(422, 'invalid_request_error', 'odd'), []).kind).toBe('bad_request');
  });

  it('keeps retry-after on the error and never leaks the key', () => {
    const error = toProviderError(apiError(429, 'rate_limit_error', `limit for ${KEY}`, { 'retry-after': '3' }), [KEY]);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.status).toBe(429);
    expect(error.message).not.toContain(KEY);
  });

  it('maps aborts, connection failures and unknown throwables', () => {
    expect(toProviderError(new APIUserAbortError(), []).kind).toBe('aborted');
    const refused = new APIConnectionError({
      cause: Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }),
    });
    const network = toProviderError(refused, []);
    expect(network.kind).toBe('network');
    expect(network.message).toContain('ECONNREFUSED');
    expect(toProviderError(new TypeError('terminated'), []).kind).toBe('network');
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
