/**
 * The pure parts of a session's sign-in (src/mcp/oauth/session-auth.ts, provider.ts): when a stored token counts as
 * running out, which `scope` of a server's 403 challenge is kept for the next sign-in, and how scopes are merged.
 * The refresh itself runs through the built binary in test/e2e/mcp-oauth-refresh.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { StoredAuth } from '../../src/mcp/oauth/auth-store.js';
import { scopeUnion } from '../../src/mcp/oauth/provider.js';
import { challengedScope, expiresSoon, REFRESH_MARGIN_MS } from '../../src/mcp/oauth/session-auth.js';

const stored = (expiresIn: number | undefined, savedAt: number | undefined): StoredAuth => ({
  version: 1,
  server: { name: 's', url: 'http://127.0.0.1/mcp' },
  tokens: { access_token: 'a', token_type: 'Bearer', ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}) },
  ...(savedAt !== undefined ? { tokensSavedAt: savedAt } : {}),
});

describe('a stored token running out', () => {
  const now = 1_000_000_000;
  it('counts as running out once it is within the margin of its end, or past it', () => {
    expect(expiresSoon(stored(3600, now - 3600 * 1000 - 1), now)).toBe(true);
    expect(expiresSoon(stored(3600, now - 3600 * 1000 + REFRESH_MARGIN_MS), now)).toBe(true);
    expect(expiresSoon(stored(3600, now - 3600 * 1000 + REFRESH_MARGIN_MS + 1), now)).toBe(false);
    expect(expiresSoon(stored(3600, now), now)).toBe(false);
  });

  it('a token without a lifetime or a save time is left to the server (a 401 then refreshes it)', () => {
    expect(expiresSoon(stored(undefined, now - 10 ** 9), now)).toBe(false);
    expect(expiresSoon(stored(3600, undefined), now)).toBe(false);
  });
});

describe("a server's 403 insufficient_scope challenge", () => {
  it('keeps a well-formed scope list', () => {
    expect(challengedScope('Bearer error="insufficient_scope", scope="mcp:basic mcp:write"')).toBe(
      'mcp:basic mcp:write',
    );
  });

  it('drops a missing, oversized or malformed one (control characters, backslashes, doubled spaces)', () => {
    expect(challengedScope('Bearer error="insufficient_scope"')).toBeUndefined();
    expect(challengedScope(`Bearer scope="${'a'.repeat(2000)}"`)).toBeUndefined();
    expect(challengedScope('Bearer scope="a\u001b[31mb"')).toBeUndefined();
    expect(challengedScope('Bearer scope="a\\\\b"')).toBeUndefined();
    expect(challengedScope('Bearer scope="a  b"')).toBeUndefined();
  });

  it('scopes merge each once, in order', () => {
    expect(scopeUnion('mcp:basic', 'mcp:basic mcp:write')).toBe('mcp:basic mcp:write');
    expect(scopeUnion('', 'x')).toBe('x');
  });
});
