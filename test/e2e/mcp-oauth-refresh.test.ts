/**
 * Refreshing a stored sign-in before it runs out, through the built binary: server-everything behind the loopback
 * authorization server and token-checking proxy (test/helpers/oauth-protected-mcp.ts, single-use refresh tokens).
 * A token that the file says is expired (or about to be) is refreshed before the handshake, so the server sees the
 * refresh grant first and never answers 401; two `mca -p` processes starting with the same expired token make one
 * refresh between them (the sign-in file's lock) and both reach the server; a refused refresh ends in the
 * "needs sign-in" line. In a long session (stream-json input), a token that runs out between two turns is refreshed
 * before the next call.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { startProtectedEverything } from '../helpers/oauth-everything.js';
import type { OAuthProtectedMcp } from '../helpers/oauth-protected-mcp.js';
import { MCA_BIN, runMca } from '../helpers/run-mca.js';
import { signedInProject } from '../helpers/oauth-signed-in.js';

const KEY = 'sk-ant-test-oauth-refresh-0123456789';

let remote: OAuthProtectedMcp;
const fakes: FakeAnthropic[] = [];

beforeAll(async () => {
  remote = await startProtectedEverything();
}, 60_000);

afterAll(() => remote?.close());

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  remote.refreshDelayMs = 0;
});

const signedIn = () => signedInProject(remote.url, { prefix: 'mca-oauth-refresh-', apiKey: KEY });

interface StoredFile {
  tokens?: { access_token?: string; refresh_token?: string; expires_in?: number };
  tokensSavedAt?: number;
}

function readStored(file: string): StoredFile {
  return JSON.parse(readFileSync(file, 'utf8')) as StoredFile;
}

/** Makes the stored access token end `secondsLeft` from now (negative: already ended), as the file tells it. */
function ageToken(file: string, secondsLeft: number): void {
  const stored = readStored(file);
  const lifetime = stored.tokens?.expires_in ?? 0;
  stored.tokensSavedAt = Date.now() - (lifetime - secondsLeft) * 1000;
  writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
}

async function printCall(project: { root: string; env: Record<string, string> }) {
  const call = { text: 'calling', calls: [{ name: 'mcp__remote__echo', input: { message: 'fresh-token' } }] };
  const fake = await startFakeAnthropic([call, { text: 'done' }]);
  fakes.push(fake);
  const result = await runMca(['-p', 'go', '--allowedTools', 'mcp__remote__echo'], {
    cwd: project.root,
    env: { ...project.env, ANTHROPIC_BASE_URL: fake.url },
    timeoutMs: 90_000,
  });
  const body = fake.requests[1]?.body as FakeRequestBody | undefined;
  return { ...result, toolResult: JSON.stringify(body?.messages?.at(-1)?.content ?? '') };
}

const STREAM_ARGS = [
  '--input-format',
  'stream-json',
  '--output-format',
  'stream-json',
  '--verbose',
  '--allowedTools',
  'mcp__remote__echo',
];

const since = (mark: number): string[] => remote.log.slice(mark);

describe('a stored sign-in is refreshed before it runs out', () => {
  it('a token expired on disk is refreshed before the handshake: a refresh grant, then authorized requests, no 401', async () => {
    const project = await signedIn();
    const before = readStored(project.file).tokens;
    remote.expireTokens();
    ageToken(project.file, -600);
    const mark = remote.log.length;

    const result = await printCall(project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.toolResult).toContain('Echo: fresh-token');
    const seen = since(mark);
    expect(seen[0]).toBe('grant:refresh_token');
    expect(seen.filter((entry) => entry === 'grant:refresh_token')).toHaveLength(1);
    expect(seen).toContain('mcp:ok');
    expect(seen).not.toContain('mcp:401');
    const after = readStored(project.file).tokens;
    expect(after?.access_token).toMatch(/^at-/);
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(statSync(project.file).mode & 0o777).toBe(0o600);
    expect(result.stdout + result.stderr).not.toContain(after?.access_token ?? 'none');
  }, 120_000);

  it('a token that ends within the margin is refreshed first too; one that has long to live is not', async () => {
    const project = await signedIn();
    ageToken(project.file, 20);
    let mark = remote.log.length;
    const soon = await printCall(project);
    expect(soon.code, soon.stderr).toBe(0);
    expect(since(mark)[0]).toBe('grant:refresh_token');

    mark = remote.log.length;
    const later = await printCall(project);
    expect(later.code, later.stderr).toBe(0);
    expect(later.toolResult).toContain('Echo: fresh-token');
    expect(since(mark)).not.toContain('grant:refresh_token');
    expect(since(mark)).not.toContain('mcp:401');
  }, 120_000);

  it('two mca -p processes with the same expired token: both reach the server, and only one refresh is made', async () => {
    const project = await signedIn();
    remote.expireTokens();
    ageToken(project.file, -600);
    // The refresh answer is held back so that the second process asks while the first refresh is under way.
    remote.refreshDelayMs = 400;
    const mark = remote.log.length;

    const [first, second] = await Promise.all([printCall(project), printCall(project)]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.toolResult).toContain('Echo: fresh-token');
    expect(second.toolResult).toContain('Echo: fresh-token');
    expect(since(mark).filter((entry) => entry === 'grant:refresh_token')).toHaveLength(1);
    expect(since(mark)).not.toContain('mcp:401');
    expect(readStored(project.file).tokens?.access_token).toMatch(/^at-/);
    expect(existsSync(`${project.file}.lock`)).toBe(false);
  }, 180_000);

  it('in a long session, a token that ran out since the handshake is refreshed before the next call, without a 401', async () => {
    const project = await signedIn();
    const call = { text: 'calling', calls: [{ name: 'mcp__remote__echo', input: { message: 'second-turn' } }] };
    const fake = await startFakeAnthropic([{ text: 'first turn done' }, call, { text: 'done' }]);
    fakes.push(fake);
    const child = spawn(process.execPath, [MCA_BIN, ...STREAM_ARGS], {
      cwd: project.root,
      env: { PATH: process.env.PATH ?? '', ...project.env, ANTHROPIC_BASE_URL: fake.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const results = (): number => stdout.split('\n').filter((line) => line.includes('"type":"result"')).length;
    const resultCount = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (results() >= count) resolve();
        };
        child.stdout.on('data', check);
        child.once('close', () => (results() >= count ? resolve() : reject(new Error(`mca ended early: ${stderr}`))));
        check();
      });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const say = (text: string): void => {
      const message = {
        type: 'user',
        message: { role: 'user', content: text },
        parent_tool_use_id: null,
        session_id: '',
      };
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    try {
      say('first');
      await resultCount(1);
      // The session has connected with the token; now it runs out (the server agrees).
      remote.expireTokens();
      ageToken(project.file, -600);
      const mark = remote.log.length;
      say('second');
      await resultCount(2);
      child.stdin.end();
      expect(await closed, stderr).toBe(0);
      const seen = since(mark);
      expect(seen[0]).toBe('grant:refresh_token');
      expect(seen).toContain('mcp:ok');
      expect(seen).not.toContain('mcp:401');
      const body = fake.requests[2]?.body as FakeRequestBody | undefined;
      expect(JSON.stringify(body?.messages?.at(-1)?.content ?? '')).toContain('Echo: second-turn');
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('a refresh the authorization server refuses (invalid_grant) ends in "needs sign-in" with the hint', async () => {
    const project = await signedIn();
    remote.expireTokens();
    remote.revokeRefreshTokens();
    ageToken(project.file, -600);

    const result = await printCall(project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('MCP server "remote" needs sign-in: run `mca mcp login remote`');
    expect(result.stderr).not.toMatch(/mcp-sdk|at Object|TypeError/);
    expect(readStored(project.file).tokens).toBeUndefined();
    const listed = await runMca(['mcp', 'list'], { cwd: project.root, env: project.env, timeoutMs: 60_000 });
    expect(listed.stdout).toMatch(
      /remote \(user\): http \S+ - ! needs-auth: needs sign-in: run `mca mcp login remote`/,
    );
  }, 120_000);
});
