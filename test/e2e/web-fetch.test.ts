/**
 * WebFetch through the built binary in -p, against a loopback target server: HTML comes back as Markdown, a
 * same-host redirect is followed and another host's is reported, a huge body is cut, a slow body times out, a
 * non-text body is refused, the API key never reaches the target, the call is denied without a rule, and loopback
 * is refused unless the user lists the host in MCA_WEBFETCH_PRIVATE_HOSTS.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { listenLoopback, type LoopbackServer } from '../helpers/loopback-http.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';

const KEY = 'sk-ant-test-webfetch-0123456789';
let api: FakeAnthropic | undefined;
let target: LoopbackServer | undefined;
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

afterEach(async () => {
  await api?.close();
  await target?.close();
  api = undefined;
  target = undefined;
  seen.length = 0;
});

const PAGE =
  '<html><head><title>T</title><script>window.evil = 1</script></head>' +
  '<body><h1>Release notes</h1><p>Version <b>2.0</b> adds <a href="/x">links</a>.</p></body></html>';

async function startTarget(): Promise<LoopbackServer> {
  const server = await listenLoopback(
    'webfetch-target',
    async (req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      const port = server.port;
      switch (req.url) {
        case '/page':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(PAGE);
        case '/same':
          res.writeHead(302, { location: '/page' });
          return void res.end();
        case '/other':
          res.writeHead(301, { location: `http://localhost:${port}/page` });
          return void res.end();
        case '/huge':
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.end('x'.repeat(3 * 1024 * 1024));
        case '/binary':
          res.writeHead(200, { 'content-type': 'image/png' });
          return void res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
        case '/slow':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('first bytes\n');
          return; // never ends
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          return void res.end('nothing here');
      }
    },
    (res) => {
      res.writeHead(500);
      res.end();
    },
  );
  return server;
}

async function run(script: FakeStep[], args: string[], env: Record<string, string> = {}) {
  const project = tempProject('mca-webfetch-');
  api = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', 'json', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
      MCA_HOME: project.home,
      MCA_TOOL_PROTOCOL: 'text',
      ...env,
    },
    timeoutMs: 60_000,
  });
}

/** What the model was told after step `index`. */
function observationAfter(index: number): string {
  const body = api?.requests[index + 1]?.body;
  if (!body) throw new Error(`no request after step ${index}`);
  const text = userText(body);
  return text.slice(text.lastIndexOf('Observation:'));
}

const fetchStep = (url: string): FakeStep => act('read it', 'WebFetch', { url, prompt: 'what changed?' });

describe('WebFetch in -p against a loopback server', () => {
  it('converts HTML, follows a same-host redirect, reports another host, cuts, times out, refuses binary', async () => {
    target = await startTarget();
    const base = `http://127.0.0.1:${target.port}`;
    const result = await run(
      [
        fetchStep(`${base}/page`),
        fetchStep(`${base}/same`),
        fetchStep(`${base}/other`),
        fetchStep(`${base}/huge`),
        fetchStep(`${base}/slow`),
        fetchStep(`${base}/binary`),
        fetchStep(`file:///etc/passwd`),
        finish('done', 'done'),
      ],
      ['--allowedTools', 'WebFetch(domain:127.0.0.1)'],
      {
        MCA_WEBFETCH_PRIVATE_HOSTS: '127.0.0.1',
        MCA_WEBFETCH_MAX_BYTES: '100000',
        MCA_WEBFETCH_TIMEOUT_MS: '1500',
      },
    );
    expect(result.code, result.stderr).toBe(0);

    const page = observationAfter(0);
    expect(page).toContain('# Release notes');
    expect(page).toContain('**2.0**');
    expect(page).toContain('Prompt: what changed?');
    expect(page).not.toContain('window.evil');

    expect(observationAfter(1)).toContain('# Release notes');
    const other = observationAfter(2);
    expect(other).toContain(`REDIRECT: ${base}/other redirects (301) to another host: http://localhost:`);
    expect(other).not.toContain('Release notes');
    expect(observationAfter(3)).toContain('the page was cut at 100,000 bytes');
    expect(observationAfter(4)).toMatch(/TIMEOUT.*did not finish within 1\.5 s/);
    expect(observationAfter(5)).toMatch(/BINARY_FILE.*not text \(image\/png/);
    expect(observationAfter(6)).toMatch(/INVALID_PARAM.*file: URLs cannot be fetched/);

    // The localhost page of the other-host redirect was never requested; the key never reached the target.
    expect(seen.map((request) => request.path)).toEqual([
      '/page',
      '/same',
      '/page',
      '/other',
      '/huge',
      '/slow',
      '/binary',
    ]);
    for (const request of seen) {
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(KEY);
    }
  }, 90_000);

  it('is denied in -p without a rule, naming the domain rule, and fetches nothing', async () => {
    target = await startTarget();
    const result = await run([fetchStep(`http://127.0.0.1:${target.port}/page`), finish('done', 'done')], [], {
      MCA_WEBFETCH_PRIVATE_HOSTS: '127.0.0.1',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(observationAfter(0)).toMatch(/PERMISSION_DENIED.*WebFetch\(domain:127\.0\.0\.1\)/);
    const json = JSON.parse(result.stdout) as { permission_denials: unknown[] };
    expect(json.permission_denials).toHaveLength(1);
    expect(JSON.stringify(json.permission_denials)).toContain('"WebFetch"');
    expect(seen).toEqual([]);
  }, 60_000);

  it('refuses a loopback address the user did not list, even when a rule allows the domain', async () => {
    target = await startTarget();
    const result = await run(
      [fetchStep(`http://127.0.0.1:${target.port}/page`), finish('done', 'done')],
      ['--allowedTools', 'WebFetch(domain:127.0.0.1)'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(observationAfter(0)).toMatch(/ACCESS_DENIED.*loopback or private address.*MCA_WEBFETCH_PRIVATE_HOSTS/);
    expect(seen).toEqual([]);
  }, 60_000);
});
