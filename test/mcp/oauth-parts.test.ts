/**
 * The sign-in's parts as a browser, an authorization server and the disk see them: the loopback callback (what it
 * answers, what ends the wait, what the person is told), the token store (modes, a renamed server, a damaged file,
 * redaction), the browser launcher's choice, and the bounded fetch (the MCP server's own URL unbounded, the
 * authorization server's answers capped).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthStore } from '../../src/mcp/oauth/auth-store.js';
import { boundedAuthFetch } from '../../src/mcp/oauth/bounded-fetch.js';
import { browserCommand } from '../../src/mcp/oauth/browser.js';
import { startCallbackServer } from '../../src/mcp/oauth/callback-server.js';
import { McpSignInError } from '../../src/mcp/oauth/errors.js';
import { tempProject } from '../helpers/temp-project.js';

const STATE = 'the-state-mca-sent';

async function callback() {
  const server = await startCallbackServer({ state: STATE, timeoutMs: 60_000 });
  const waited = server.wait().then(
    (params) => ({ params, error: undefined }),
    (error: unknown) => ({ params: undefined, error: error as Error }),
  );
  return { server, waited };
}

describe('the loopback callback', () => {
  it('listens on 127.0.0.1 and hands over the code that came with the right state', async () => {
    const { server, waited } = await callback();
    expect(server.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = await fetch(`${server.redirectUrl}?code=abc&state=${STATE}&iss=x`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in to mca.');
    const { params } = await waited;
    expect(params?.get('code')).toBe('abc');
    await server.close();
  });

  it('a request to another path gets 404 and does not end the wait; a wrong state ends it, saving nothing', async () => {
    const { server, waited } = await callback();
    const other = await fetch(server.redirectUrl.replace('/callback', '/favicon.ico'));
    expect(other.status).toBe(404);
    const forged = await fetch(`${server.redirectUrl}?code=evil&state=guessed`);
    expect(forged.status).toBe(400);
    const { error } = await waited;
    expect(error).toBeInstanceOf(McpSignInError);
    expect(error?.message).toBe('the sign-in callback carried a state that does not match; nothing was saved');
    // One-shot: the right answer after that is not taken either.
    const late = await fetch(`${server.redirectUrl}?code=abc&state=${STATE}`);
    expect(late.status).toBe(404);
    await server.close();
  });

  it("an error answer is reported by its code only, never the server's description", async () => {
    const { server, waited } = await callback();
    const description = encodeURIComponent('\u001b]52;c;ZXZpbA==\u0007 visit http://evil.example');
    await fetch(`${server.redirectUrl}?error=access_denied%1b[2J&error_description=${description}&state=${STATE}`);
    const { error } = await waited;
    expect(error?.message).toBe('the authorization server refused the sign-in (access_denied2J)');
    await server.close();
  });

  it('no answer within the time: one line, and close() frees the port', async () => {
    const server = await startCallbackServer({ state: STATE, timeoutMs: 50 });
    await expect(server.wait()).rejects.toThrow('no sign-in answer arrived within 0 s');
    await server.close();
    await expect(fetch(server.redirectUrl)).rejects.toThrow();
  });
});

describe('the token store', () => {
  it('writes 0600 in a 0700 directory under MCA_HOME, and a server renamed to another URL sees nothing', () => {
    const { home } = tempProject('mca-oauth-store-');
    const store = new AuthStore(home, { name: 'github', url: 'https://mcp.example/github' });
    store.update((auth) => {
      auth.tokens = { access_token: 'secret-access-token-1', token_type: 'Bearer', refresh_token: 'secret-refresh-2' };
    });
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store.file)).mode & 0o777).toBe(0o700);
    expect(store.file.startsWith(`${home}/mcp-auth/github-`)).toBe(true);
    expect(new AuthStore(home, { name: 'github', url: 'https://mcp.example/github' }).hasTokens()).toBe(true);
    expect(new AuthStore(home, { name: 'github', url: 'https://attacker.example/mcp' }).hasTokens()).toBe(false);
    expect(store.redact('refused secret-access-token-1 and secret-refresh-2')).toBe(
      'refused [REDACTED] and [REDACTED]',
    );
  });

  it('a damaged or foreign file reads as not signed in; remove() deletes it', () => {
    const { home } = tempProject('mca-oauth-store-');
    const store = new AuthStore(home, { name: 's', url: 'https://mcp.example/' });
    mkdirSync(dirname(store.file), { recursive: true });
    writeFileSync(store.file, '{"version":1,"server":{"url":"https://other.example/"},"tokens":{"access_token":"x"}}');
    expect(store.hasTokens()).toBe(false);
    writeFileSync(store.file, '{not json');
    expect(store.hasTokens()).toBe(false);
    store.update((auth) => {
      auth.tokens = { access_token: 'a-token-value', token_type: 'Bearer' };
    });
    expect(JSON.parse(readFileSync(store.file, 'utf8')).server.url).toBe('https://mcp.example/');
    expect(store.remove()).toBe(true);
    expect(store.hasTokens()).toBe(false);
  });
});

describe('which browser', () => {
  const url = 'https://auth.example/authorize?x=1';
  it('MCA_BROWSER_COMMAND wins, with the URL as its last argument', () => {
    const env = { MCA_BROWSER_COMMAND: 'node /tmp/b.mjs', MCA_NO_BROWSER: '1' };
    expect(browserCommand(url, { env, interactiveTerminal: false })).toEqual(['node', '/tmp/b.mjs', url]);
  });
  it('MCA_NO_BROWSER=1 or no terminal: only printed', () => {
    expect(browserCommand(url, { env: { MCA_NO_BROWSER: '1' }, interactiveTerminal: true })).toBeUndefined();
    expect(browserCommand(url, { env: {}, interactiveTerminal: false })).toBeUndefined();
  });
  it("the platform's opener, never a shell", () => {
    expect(browserCommand(url, { env: {}, interactiveTerminal: true, platform: 'linux' })).toEqual(['xdg-open', url]);
    expect(browserCommand(url, { env: {}, interactiveTerminal: true, platform: 'darwin' })).toEqual(['open', url]);
  });
});

describe('the bounded fetch', () => {
  const big = (): Promise<Response> => Promise.resolve(new Response('x'.repeat(5000)));
  it("passes the MCP server's own URL through and caps every other answer", async () => {
    const fetch = boundedAuthFetch('http://127.0.0.1:9/mcp', { maxBytes: 1024 }, big);
    expect((await (await fetch('http://127.0.0.1:9/mcp')).text()).length).toBe(5000);
    await expect(fetch('http://127.0.0.1:9/.well-known/oauth-authorization-server')).rejects.toThrow(
      '127.0.0.1:9 sent more than 1 KiB in one answer',
    );
  });
  it('an answer that never comes ends after the time given', async () => {
    const hang = (_input: string | URL, init?: RequestInit): Promise<Response> =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const fetch = boundedAuthFetch('http://127.0.0.1:9/mcp', { timeoutMs: 50 }, hang);
    await expect(fetch('http://127.0.0.1:9/token')).rejects.toThrow('127.0.0.1:9 did not answer within 0.05 s');
  });
});
