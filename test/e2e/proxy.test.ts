/**
 * `mca -p` through the built binary behind a corporate-style proxy: HTTPS_PROXY (with credentials) in front of the
 * loopback fake Anthropic API served over https with a self-signed certificate trusted through
 * NODE_EXTRA_CA_CERTS. The run answers through one tunnel; the proxy sees its credentials and never the API key;
 * a proxy that wants other credentials is one line on stderr (not retried) naming the proxy, never its password.
 * Skipped without openssl (the certificate is made with it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { hasOpenssl, makeSelfSignedCert, type SelfSignedCert } from '../helpers/self-signed-cert.js';
import { runsWith } from '../helpers/optional-tools.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-e2e-proxy-0123456789abcdef';
const PASSWORD = 'corp-pa55-word';

const action = (tool: string, input: unknown) => ({ text: `Thought: go\nAction: ${tool}[${JSON.stringify(input)}]` });
const finish = (answer: string) => ({ text: `Thought: done\nAction: Finish[${answer}]` });

let cert: SelfSignedCert | undefined;
let fake: FakeAnthropic | undefined;
let proxy: ConnectProxy | undefined;
const OPENSSL = runsWith('openssl', hasOpenssl(), 'the mca -p behind HTTPS_PROXY tests');

beforeAll(() => {
  if (OPENSSL) cert = makeSelfSignedCert();
});
afterAll(() => cert?.remove());
afterEach(async () => {
  await fake?.close();
  await proxy?.close();
  fake = proxy = undefined;
});

function runBehindProxy(proxyUrl: string, baseUrl: string, extra: Record<string, string> = {}) {
  const { root, home } = tempProject('mca-e2e-proxy-', { 'notes.txt': 'the answer is 42\n' });
  return runMca(['-p', 'what do the notes say?', '--permission-mode', 'bypassPermissions'], {
    cwd: root,
    env: {
      MCA_HOME: home,
      MCA_TOOL_PROTOCOL: 'text',
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: baseUrl,
      HTTPS_PROXY: proxyUrl,
      NODE_EXTRA_CA_CERTS: cert?.certPath ?? '',
      ...extra,
    },
  });
}

describe.skipIf(!OPENSSL)('mca -p behind HTTPS_PROXY (needs openssl)', () => {
  it('answers over https through one tunnel; the proxy sees its credentials but never the key', async () => {
    if (cert === undefined) throw new Error('no certificate');
    fake = await startFakeAnthropic([action('Read', { path: 'notes.txt' }), finish('The notes say 42.')], {
      tls: { key: cert.key, cert: cert.cert },
    });
    proxy = await startConnectProxy();
    const run = await runBehindProxy(proxy.url.replace('http://', `http://corp:${PASSWORD}@`), fake.url);
    expect(run).toMatchObject({ code: 0, signal: null, stdout: 'The notes say 42.\n', stderr: '' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.connections()).toBe(1);
    expect(fake.requests.map((request) => request.headers['proxy-authorization'])).toEqual([undefined, undefined]);
    expect(proxy.connects).toHaveLength(1);
    expect(proxy.connects[0]).toMatchObject({
      target: new URL(fake.url).host,
      headers: { 'proxy-authorization': `Basic ${Buffer.from(`corp:${PASSWORD}`).toString('base64')}` },
    });
    const carried = proxy.clientBytes();
    expect(carried.length).toBeGreaterThan(0);
    expect(carried).not.toContain(KEY);
    expect(carried).not.toContain('notes.txt');
  });

  it('NO_PROXY naming the API host sends it direct: the proxy sees nothing', async () => {
    if (cert === undefined) throw new Error('no certificate');
    fake = await startFakeAnthropic([finish('Direct.')], { tls: { key: cert.key, cert: cert.cert } });
    proxy = await startConnectProxy();
    const run = await runBehindProxy(proxy.url, fake.url, { NO_PROXY: 'example.com,127.0.0.1' });
    expect(run).toMatchObject({ code: 0, stdout: 'Direct.\n', stderr: '' });
    expect(proxy.connects).toEqual([]);
  });

  it('a proxy answering 407 is one line on stderr naming the proxy and never the password', async () => {
    if (cert === undefined) throw new Error('no certificate');
    fake = await startFakeAnthropic([finish('unreachable')], { tls: { key: cert.key, cert: cert.cert } });
    proxy = await startConnectProxy({ refuse: 407 });
    // The default retries stay on: a 407 is not retried, so the one line comes at once.
    const run = await runBehindProxy(proxy.url.replace('http://', `http://corp:${PASSWORD}@`), fake.url);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      `the proxy 127.0.0.1:${proxy.port} from HTTPS_PROXY refused the tunnel to ${new URL(fake.url).host} (407 Proxy Authentication Required)`,
    );
    expect(run.stderr + run.stdout).not.toContain(PASSWORD);
    expect(run.stderr).not.toContain(Buffer.from(`corp:${PASSWORD}`).toString('base64'));
    expect(fake.requests).toEqual([]);
    expect(proxy.connects).toHaveLength(1);
  });
});
