/**
 * `mca --acp` against a client that floods: a line over the per-message cap (lowered here with
 * MCA_CLIENT_LINE_MAX_BYTES) is one log line on stderr and is dropped; the messages after it are answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

let child: AcpChild | undefined;

afterEach(() => {
  child?.child.kill('SIGKILL');
  child = undefined;
});

describe('mca --acp with a flooding client', () => {
  it('an endless line is dropped with one log line; the next request is answered', async () => {
    const { root, home } = tempProject('mca-acp-flood-');
    child = spawnAcp(root, {
      ANTHROPIC_API_KEY: 'sk-ant-test-acp-flood-0123',
      MCA_HOME: home,
      HOME: home,
      MCA_CLIENT_LINE_MAX_BYTES: String(64 * 1024),
    });
    child.raw(`{"jsonrpc":"2.0","id":99,"method":"initialize","params":{"junk":"${'x'.repeat(2 * 1024 * 1024)}"}}`);
    const connection = acp.client({ name: 'acp-flood-e2e' }).connect(child.stream);
    const init = await connection.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    expect(init.protocolVersion).toBe(1);
    expect(child.stderr()).toMatch(/ignored a message: the client sent a message over 65536 bytes/);
    expect(child.sent.some((message) => message.id === 99)).toBe(false);
    expect(child.problems).toEqual([]);
    connection.close();
  });
});
