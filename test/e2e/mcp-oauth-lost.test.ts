/**
 * A sign-in lost in the middle of a session, through the built binary over stream-json: server-everything behind
 * the loopback authorization server and token-checking proxy (test/helpers/oauth-protected-mcp.ts). Between two
 * turns every access token stops working and every refresh token is revoked, so the next call gets a 401 that the
 * refresh cannot cure (`invalid_grant`) — or, when the file says the token ran out, the refresh before the call is
 * refused. Either way the model's tool result says the server needs sign-in, the next model request no longer
 * offers `mcp__remote__*`, `mcp_status` answers `needs-auth`, and one notice line (an
 * `mca_warning` system line) names `mca mcp login remote`. After that login in another process, a reconnect (the
 * manager call `/mcp` Reconnect makes, here as `mcp_reconnect`) brings the tools back.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { startProtectedEverything } from '../helpers/oauth-everything.js';
import type { OAuthProtectedMcp } from '../helpers/oauth-protected-mcp.js';
import { MCA_BIN, runMca } from '../helpers/run-mca.js';
import { HEADLESS_BROWSER, signedInProject } from '../helpers/oauth-signed-in.js';

const KEY = 'sk-ant-test-oauth-lost-0123456789';
const HINT = 'MCP server "remote" needs sign-in: run `mca mcp login remote`';

let remote: OAuthProtectedMcp;
const fakes: FakeAnthropic[] = [];

beforeAll(async () => {
  remote = await startProtectedEverything();
}, 60_000);

afterAll(() => remote?.close());

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

const signedIn = () => signedInProject(remote.url, { prefix: 'mca-oauth-lost-', apiKey: KEY });

/** Makes the file say the stored access token ended ten minutes ago. */
function ageToken(file: string): void {
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { tokens?: { expires_in?: number }; tokensSavedAt?: number };
  stored.tokensSavedAt = Date.now() - ((stored.tokens?.expires_in ?? 0) + 600) * 1000;
  writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
}

const toolNames = (body: FakeRequestBody | undefined): string[] =>
  ((body?.tools as Array<{ name?: string }> | undefined) ?? []).map((tool) => tool.name ?? '');

interface Line {
  type: string;
  subtype?: string;
  message?: unknown;
  response?: { request_id?: string; response?: { mcpServers?: Array<{ name: string; status: string }> } };
}

/** Runs mca over stream-json; `send` writes one line, `until` waits for a stdout line that passes `test`. */
function session(cwd: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      MCA_BIN,
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      'mcp__remote__echo',
    ],
    { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const lines = (): Line[] =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const until = (test: (lines: Line[]) => boolean): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (test(lines())) resolve();
      };
      child.stdout.on('data', check);
      void closed.then(() => (test(lines()) ? resolve() : reject(new Error(`mca ended early: ${stderr}`))));
      check();
    });
  const send = (message: Record<string, unknown>): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
  const say = (text: string): void =>
    send({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' });
  const results = (count: number) => until((all) => all.filter((line) => line.type === 'result').length >= count);
  return { child, closed, until, send, say, results, lines, stderr: () => stderr };
}

describe('a sign-in lost mid-session', () => {
  it.each([
    ['a 401 that the refused refresh cannot cure', false],
    ['a refresh before the call that the server refuses', true],
  ])(
    '%s: the server is needs-auth at once, its tools leave the next request, and come back after login + reconnect',
    async (_label, aged) => {
      const project = await signedIn();
      const call = { text: 'calling', calls: [{ name: 'mcp__remote__echo', input: { message: 'after-revoke' } }] };
      const again = { text: 'calling again', calls: [{ name: 'mcp__remote__echo', input: { message: 'signed-in' } }] };
      const fake = await startFakeAnthropic([
        { text: 'first turn done' },
        call,
        { text: 'done' },
        again,
        { text: 'ok' },
      ]);
      fakes.push(fake);
      const mca = session(project.root, { ...project.env, ANTHROPIC_BASE_URL: fake.url });
      try {
        mca.say('first');
        await mca.results(1);
        expect(toolNames(fake.requests[0]?.body)).toContain('mcp__remote__echo');
        // The authorization is withdrawn while the session runs.
        remote.expireTokens();
        remote.revokeRefreshTokens();
        if (aged) ageToken(project.file);
        mca.say('second');
        await mca.results(2);
        mca.send({ type: 'control_request', request_id: 'status-1', request: { subtype: 'mcp_status' } });
        await mca.until((all) => all.some((line) => line.response?.request_id === 'status-1'));

        // Signed in again from another terminal, then Reconnect (the same manager call as `/mcp` Reconnect).
        const login = await runMca(['mcp', 'login', 'remote'], {
          cwd: project.root,
          env: { ...project.env, MCA_BROWSER_COMMAND: HEADLESS_BROWSER },
          timeoutMs: 60_000,
        });
        expect(login.code, login.stderr).toBe(0);
        mca.send({
          type: 'control_request',
          request_id: 'again-1',
          request: { subtype: 'mcp_reconnect', serverName: 'remote' },
        });
        await mca.until((all) => all.some((line) => line.response?.request_id === 'again-1'));
        mca.say('third');
        await mca.results(3);
        mca.child.stdin.end();
        expect(await mca.closed, mca.stderr()).toBe(0);
        expect(toolNames(fake.requests[3]?.body)).toContain('mcp__remote__echo');
        expect(JSON.stringify(fake.requests[4]?.body?.messages?.at(-1)?.content ?? '')).toContain('Echo: signed-in');

        const followUp = fake.requests[2]?.body;
        const toolResult = JSON.stringify(followUp?.messages?.at(-1)?.content ?? '');
        expect(toolResult).toContain('needs sign-in');
        expect(toolResult).toContain('mca mcp login remote');
        expect(toolNames(followUp).filter((name) => name.startsWith('mcp__remote__'))).toEqual([]);
        expect(toolNames(followUp).length).toBeGreaterThan(0);
        const status = mca.lines().find((line) => line.response?.request_id === 'status-1');
        expect(status?.response?.response?.mcpServers?.find((server) => server.name === 'remote')?.status).toBe(
          'needs-auth',
        );
        // One notice line for the host (stream-json carries it as an mca_warning system line; -p prints it on stderr).
        const notices = mca.lines().filter((line) => line.subtype === 'mca_warning' && line.message === HINT);
        expect(notices).toHaveLength(1);
        expect(mca.stderr()).not.toMatch(/mcp-sdk|at Object|TypeError/);
      } finally {
        mca.child.kill('SIGKILL');
      }
    },
    120_000,
  );
});

describe('a wider scope asked for one call (403 insufficient_scope)', () => {
  it('fails that call with the login hint but keeps the server connected and its tools offered', async () => {
    const project = await signedIn();
    const call = { text: 'calling', calls: [{ name: 'mcp__remote__echo', input: { message: 'wider' } }] };
    const fake = await startFakeAnthropic([{ text: 'first turn done' }, call, { text: 'done' }]);
    fakes.push(fake);
    const mca = session(project.root, { ...project.env, ANTHROPIC_BASE_URL: fake.url });
    try {
      mca.say('first');
      await mca.results(1);
      remote.stepUpScope = 'mcp:write';
      mca.say('second');
      await mca.results(2);
      remote.stepUpScope = undefined;
      mca.send({ type: 'control_request', request_id: 'status-1', request: { subtype: 'mcp_status' } });
      await mca.until((all) => all.some((line) => line.response?.request_id === 'status-1'));
      mca.child.stdin.end();
      expect(await mca.closed, mca.stderr()).toBe(0);
      const followUp = fake.requests[2]?.body;
      const toolResult = JSON.stringify(followUp?.messages?.at(-1)?.content ?? '');
      expect(toolResult).toContain('mcp__remote__echo needs a wider sign-in');
      expect(toolResult).toContain('mca mcp login remote');
      expect(toolNames(followUp)).toContain('mcp__remote__echo');
      const status = mca.lines().find((line) => line.response?.request_id === 'status-1');
      expect(status?.response?.response?.mcpServers?.find((server) => server.name === 'remote')?.status).toBe(
        'connected',
      );
    } finally {
      remote.stepUpScope = undefined;
      mca.child.kill('SIGKILL');
    }
  }, 120_000);
});
