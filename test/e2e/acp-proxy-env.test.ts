/**
 * One `mca --acp` process serving two projects, the first with HTTPS_PROXY/HTTP_PROXY in its trusted settings
 * `env`: that project's model requests and WebFetch calls go through the proxy (a loopback CONNECT proxy sees
 * them), the second project's go direct. Each runtime reads its own environment view, never process.env (where
 * an ACP runtime's settings `env` is not written), so the proxy reaches the transport and WebFetch and does not
 * leak into the other session.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { listenLoopback, type LoopbackServer } from '../helpers/loopback-http.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

const KEY = 'sk-ant-test-acp-proxy-0123456789';
let server: FakeAnthropic | undefined;
let proxy: ConnectProxy | undefined;
let target: LoopbackServer | undefined;
let child: AcpChild | undefined;

afterEach(async () => {
  child?.child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  await proxy?.close();
  await target?.close();
  server = proxy = target = undefined;
});

describe('mca --acp: a project settings proxy', () => {
  it("reaches that session's model transport and WebFetch, and not another project's session", async () => {
    target = await listenLoopback(
      'acp-proxy-page',
      async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('page body');
      },
      (res) => res.writeHead(500).end(),
    );
    const page = `http://127.0.0.1:${target.port}/page`;
    const fetchCall = { name: 'WebFetch', input: { url: page, prompt: 'what does it say?' } };
    proxy = await startConnectProxy();
    const { root: alpha, home } = tempProject('mca-acp-proxy-');
    const beta = join(alpha, '..', 'beta');
    mkdirSync(beta);
    mkdirSync(join(alpha, '.claude'));
    const settings = { env: { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url } };
    writeFileSync(join(alpha, '.claude', 'settings.json'), JSON.stringify(settings));
    const env = {
      ANTHROPIC_API_KEY: KEY,
      MCA_HOME: home,
      HOME: home,
      MCA_PERMISSION_MODE: 'bypassPermissions',
      MCA_WEBFETCH_PRIVATE_HOSTS: '127.0.0.1',
    };
    for (const root of [alpha, beta]) expect((await runMca(['trust'], { cwd: root, env })).code).toBe(0);
    server = await startFakeAnthropic([
      { text: 'Fetching.', calls: [fetchCall] },
      { text: 'Alpha done.' },
      { text: 'Fetching.', calls: [fetchCall] },
      { text: 'Beta done.' },
    ]);
    child = spawnAcp(alpha, { ...env, ANTHROPIC_BASE_URL: server.url });
    const connection = acp
      .client({ name: 'acp-proxy-e2e' })
      .onNotification('session/update', () => undefined)
      .connect(child.stream);
    await connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const first = await connection.agent.request('session/new', { cwd: alpha, mcpServers: [] });
    const second = await connection.agent.request('session/new', { cwd: beta, mcpServers: [] });
    const prompt = async (sessionId: string) => {
      const done = await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'fetch the page' }],
      });
      expect(done.stopReason).toBe('end_turn');
    };
    const modelHost = new URL(server.url).host;
    const pageHost = `127.0.0.1:${target.port}`;

    await prompt(first.sessionId);
    const throughProxy = proxy.connects.map((record) => record.target);
    expect(throughProxy).toContain(modelHost); // the model transport
    expect(throughProxy).toContain(pageHost); // WebFetch
    expect(JSON.stringify(server.requests[1]?.body.messages?.at(-1))).toContain('page body');

    await prompt(second.sessionId);
    expect(proxy.connects.map((record) => record.target)).toEqual(throughProxy); // nothing more went through it
    expect(JSON.stringify(server.requests[3]?.body.messages?.at(-1))).toContain('page body');
    expect(child.problems).toEqual([]);
    connection.close();
  });
});
