/**
 * One `mca --acp` process serving two projects: a trusted project's settings `env` reaches its own commands and
 * never the other project's (each runtime keeps its `env` as an overlay instead of writing it into process.env).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

const KEY = 'sk-ant-test-acp-env-0123456789';
let server: FakeAnthropic | undefined;
let child: AcpChild | undefined;

afterEach(async () => {
  child?.child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

const echoVar = { name: 'Bash', input: { command: 'echo "value=[${MCA_ACP_ENV_PROBE:-unset}]"' } };

describe('mca --acp with sessions in two projects', () => {
  it("a project's settings env is seen by its own Bash call and not by the other project's", async () => {
    const { root: alpha, home } = tempProject('mca-acp-env-');
    const beta = join(alpha, '..', 'beta');
    mkdirSync(beta);
    mkdirSync(join(alpha, '.claude'));
    writeFileSync(join(alpha, '.claude', 'settings.json'), JSON.stringify({ env: { MCA_ACP_ENV_PROBE: 'alpha' } }));
    const env = { ANTHROPIC_API_KEY: KEY, MCA_HOME: home, HOME: home, MCA_PERMISSION_MODE: 'bypassPermissions' };
    for (const root of [alpha, beta]) expect((await runMca(['trust'], { cwd: root, env })).code).toBe(0);
    server = await startFakeAnthropic([
      { text: 'Probing.', calls: [echoVar] },
      { text: 'Alpha done.' },
      { text: 'Probing.', calls: [echoVar] },
      { text: 'Beta done.' },
    ]);
    child = spawnAcp(alpha, { ...env, ANTHROPIC_BASE_URL: server.url });
    const connection = acp
      .client({ name: 'acp-env-e2e' })
      .onNotification('session/update', () => undefined)
      .connect(child.stream);
    await connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const first = await connection.agent.request('session/new', { cwd: alpha, mcpServers: [] });
    const second = await connection.agent.request('session/new', { cwd: beta, mcpServers: [] });
    for (const session of [first, second]) {
      const done = await connection.agent.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: 'probe the variable' }],
      });
      expect(done.stopReason).toBe('end_turn');
    }
    const results = [1, 3].map((index) => JSON.stringify(server?.requests[index]?.body.messages?.at(-1)));
    expect(results[0]).toContain('value=[alpha]');
    expect(results[1]).toContain('value=[unset]');
    expect(child.problems).toEqual([]);
    connection.close();
  });
});
