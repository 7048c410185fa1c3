/**
 * Signing in to a remote MCP server, through the built binary: server-everything over streamable HTTP behind a
 * loopback OAuth authorization server and token-checking proxy (test/helpers/oauth-protected-mcp.ts); the browser
 * is test/helpers/headless-browser.mjs (MCA_BROWSER_COMMAND), which follows the authorization redirects to mca's
 * loopback callback. What the user sees (stdout, stderr, exit code, the token file and its mode) and what the model
 * is told (the tool result in the next request).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { startOAuthProtectedMcp, type OAuthProtectedMcp } from '../helpers/oauth-protected-mcp.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-oauth-0123456789';
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const BROWSER = `${process.execPath} ${fileURLToPath(new URL('../helpers/headless-browser.mjs', import.meta.url))}`;

let upstream: ChildProcess | undefined;
let upstreamSse: ChildProcess | undefined;
let remote: OAuthProtectedMcp;
let fake: FakeAnthropic | undefined;

beforeAll(async () => {
  const port = await freePort();
  upstream = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ssePort = await freePort();
  upstreamSse = spawn(process.execPath, [EVERYTHING, 'sse'], {
    env: { ...process.env, PORT: String(ssePort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await Promise.all([waitForOutput(upstream, /listening on port/i), waitForOutput(upstreamSse, /running on port/i)]);
  remote = await startOAuthProtectedMcp({ http: port, sse: ssePort });
}, 60_000);

afterAll(async () => {
  await remote?.close();
  upstream?.kill('SIGKILL');
  upstreamSse?.kill('SIGKILL');
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
  remote.mode = 'none';
});

function setup() {
  const project = tempProject('mca-oauth-');
  const env = { MCA_HOME: project.home, HOME: project.home, ANTHROPIC_API_KEY: KEY };
  return { ...project, env };
}
type Project = ReturnType<typeof setup>;

async function addRemote(project: Project, extra: string[] = ['-t', 'http', 'remote', remote.url]): Promise<void> {
  const added = await runMca(['mcp', 'add', '-s', 'user', ...extra], {
    cwd: project.root,
    env: project.env,
  });
  expect(added.code, added.stderr).toBe(0);
}

function login(project: Project, extra: Record<string, string> = {}) {
  return runMca(['mcp', 'login', 'remote'], {
    cwd: project.root,
    env: { ...project.env, MCA_BROWSER_COMMAND: BROWSER, ...extra },
    timeoutMs: 60_000,
  });
}

function authFiles(project: Project): string[] {
  const dir = join(project.home, 'mcp-auth');
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

function storedAccessToken(project: Project): string {
  const [file] = authFiles(project);
  const stored = JSON.parse(readFileSync(file ?? '', 'utf8')) as { tokens?: { access_token?: string } };
  return stored.tokens?.access_token ?? '';
}

async function printCall(project: Project, args: string[] = [], env: Record<string, string> = {}) {
  const call = { text: 'calling', calls: [{ name: 'mcp__remote__echo', input: { message: 'through-oauth' } }] };
  fake = await startFakeAnthropic([call, { text: 'done' }]);
  return runMca(['-p', 'go', '--allowedTools', 'mcp__remote__echo', ...args], {
    cwd: project.root,
    env: { ...project.env, ANTHROPIC_BASE_URL: fake.url, ...env },
    timeoutMs: 90_000,
  });
}

function toolResult(): string {
  const body = fake?.requests[1]?.body as FakeRequestBody | undefined;
  return JSON.stringify(body?.messages?.at(-1)?.content ?? '');
}

describe('remote MCP servers that need sign-in', () => {
  it('mca mcp login stores a 0600 token file under MCA_HOME; mca -p then calls a tool on that server', async () => {
    const project = setup();
    await addRemote(project);
    const signedIn = await login(project);
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stdout).toContain('Signed in to "remote".');
    expect(signedIn.stdout).toContain('/authorize?');

    const files = authFiles(project);
    expect(files).toHaveLength(1);
    expect(statSync(files[0] ?? '').mode & 0o777).toBe(0o600);
    expect(statSync(join(project.home, 'mcp-auth')).mode & 0o777).toBe(0o700);
    const token = storedAccessToken(project);
    expect(token).toMatch(/^at-/);
    expect(signedIn.stdout + signedIn.stderr).not.toContain(token);
    expect(readdirSync(project.root)).toEqual([]);
    const shown = await runMca(['mcp', 'get', 'remote'], { cwd: project.root, env: project.env });
    expect(shown.stdout).toContain('signed in: yes');
    expect(shown.stdout).not.toContain(token);

    const before = remote.authorizedCalls();
    const result = await printCall(project);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResult()).toContain('Echo: through-oauth');
    expect(remote.authorizedCalls()).toBeGreaterThan(before);
    expect(result.stdout + result.stderr).not.toContain(token);
  }, 120_000);

  it('an expired access token is refreshed on connect, and the new one is stored', async () => {
    const project = setup();
    await addRemote(project);
    expect((await login(project)).code).toBe(0);
    const first = storedAccessToken(project);
    remote.expireTokens();
    const refreshesBefore = remote.grants.filter((grant) => grant === 'refresh_token').length;

    const result = await printCall(project);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResult()).toContain('Echo: through-oauth');
    expect(remote.grants.filter((grant) => grant === 'refresh_token').length).toBe(refreshesBefore + 1);
    const second = storedAccessToken(project);
    expect(second).toMatch(/^at-/);
    expect(second).not.toBe(first);
  }, 120_000);

  it('without a sign-in the server shows needs-auth with the login hint, no browser opens, and other servers work', async () => {
    const project = setup();
    await addRemote(project);
    const marker = join(project.home, 'browser-was-started');
    const script = join(project.home, 'browser.mjs');
    writeFileSync(script, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\n`);
    const local = JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
    const call = { text: 'calling', calls: [{ name: 'mcp__local__echo', input: { message: 'local-works' } }] };
    fake = await startFakeAnthropic([call, { text: 'done' }]);
    const result = await runMca(['-p', 'go', '--mcp-config', local, '--allowedTools', 'mcp__local__echo'], {
      cwd: project.root,
      env: {
        ...project.env,
        ANTHROPIC_BASE_URL: fake.url,
        MCA_BROWSER_COMMAND: `${process.execPath} ${script}`,
      },
      timeoutMs: 90_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('MCP server "remote" needs sign-in: run `mca mcp login remote`');
    expect(toolResult()).toContain('Echo: local-works');
    expect(existsSync(marker)).toBe(false);
    expect(authFiles(project)).toEqual([]);

    const listed = await runMca(['mcp', 'list'], { cwd: project.root, env: project.env, timeoutMs: 60_000 });
    expect(listed.stdout).toMatch(
      /remote \(user\): http \S+ - ! needs-auth: needs sign-in: run `mca mcp login remote`/,
    );
  }, 120_000);

  it('mca mcp logout deletes the stored tokens; the server needs sign-in again', async () => {
    const project = setup();
    await addRemote(project);
    expect((await login(project)).code).toBe(0);
    const out = await runMca(['mcp', 'logout', 'remote'], { cwd: project.root, env: project.env });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Signed out of "remote"');
    expect(authFiles(project)).toEqual([]);
    const result = await printCall(project);
    expect(result.stdout + result.stderr).toContain('needs sign-in: run `mca mcp login remote`');
    expect(toolResult()).not.toContain('Echo: through-oauth');
  }, 120_000);

  it('a legacy SSE server: the same sign-in, then a tool call over SSE with the token', async () => {
    const project = setup();
    await addRemote(project, ['-t', 'sse', 'remote', remote.sseUrl]);
    const signedIn = await login(project);
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stdout).toContain('Signed in to "remote".');
    const result = await printCall(project);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResult()).toContain('Echo: through-oauth');
  }, 120_000);

  it("a pre-registered client (Claude Code's oauth.clientId, callbackPort, scopes): no registration, its redirect URI and the pinned scope", async () => {
    const project = setup();
    const port = await freePort();
    remote.preRegister('mca-team-client', `http://localhost:${port}/callback`);
    await addRemote(project, [
      '-t',
      'http',
      '--client-id',
      'mca-team-client',
      '--callback-port',
      String(port),
      'remote',
      remote.url,
    ]);
    const config = JSON.parse(readFileSync(join(project.home, 'mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { oauth?: unknown }>;
    };
    expect(config.mcpServers.remote?.oauth).toEqual({ clientId: 'mca-team-client', callbackPort: port });
    config.mcpServers.remote = {
      ...config.mcpServers.remote,
      oauth: { clientId: 'mca-team-client', callbackPort: port, scopes: 'tools:read tools:call' },
    };
    writeFileSync(join(project.home, 'mcp.json'), JSON.stringify(config));
    const registrations = remote.registrations();

    const signedIn = await login(project);
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(remote.registrations()).toBe(registrations);
    expect(remote.authorizations.at(-1)).toEqual({
      clientId: 'mca-team-client',
      redirectUri: `http://localhost:${port}/callback`,
      scope: 'tools:read tools:call',
    });
    const result = await printCall(project);
    expect(toolResult()).toContain('Echo: through-oauth');
    expect(result.code).toBe(0);
  }, 120_000);

  describe('hostile authorization servers and callbacks end the sign-in with one line, storing no token', () => {
    const cases: Array<{ mode: OAuthProtectedMcp['mode']; message: RegExp; env?: Record<string, string> }> = [
      { mode: 'forged-state', message: /callback carried a state that does not match; nothing was saved/ },
      {
        mode: 'off-loopback',
        message: /no sign-in answer arrived within 3 s/,
        env: { MCA_OAUTH_TIMEOUT_MS: '3000' },
      },
      { mode: 'hanging-metadata', message: /(no answer|did not answer) within 2 s/, env: { MCP_TIMEOUT: '2000' } },
      { mode: 'huge-metadata', message: /sent more than 1024 KiB in one answer/ },
    ];
    for (const { mode, message, env } of cases) {
      it(
        mode,
        async () => {
          const project = setup();
          await addRemote(project);
          remote.mode = mode;
          const result = await login(project, env);
          expect(result.code).not.toBe(0);
          const lines = result.stderr.trim().split('\n');
          expect(lines, result.stderr).toHaveLength(1);
          expect(lines[0]).toMatch(message);
          expect(lines[0]).toMatch(/^mca: MCP sign-in to "remote" failed: /);
          const stored = authFiles(project).map((file) => readFileSync(file, 'utf8'));
          expect(stored.join('')).not.toContain('access_token');
        },
        90_000,
      );
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (pattern.test(seen)) resolve();
    });
    child.once('exit', () => reject(new Error(`server exited: ${seen}`)));
  });
}
