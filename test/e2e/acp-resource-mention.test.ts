/**
 * `mca --acp`: an `@server:uri` mention in an editor's prompt attaches the MCP resource, as it does in the REPL, `-p`
 * and stream-json (all four fronts open their session the same way, src/driver/open-session.ts). Driven by the ACP
 * SDK's client over the built binary, with the catalog fixture server the editor passes in `session/new` and the
 * loopback fake model: the model's first request carries the resource's text.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';

const CATALOG = fileURLToPath(new URL('../fixtures/mcp/catalog-server.mjs', import.meta.url));
let server: FakeAnthropic | undefined;
let child: AcpChild | undefined;

afterEach(async () => {
  child?.child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

describe('mca --acp @server:uri', () => {
  it('the resource text of the mentioned MCP resource goes with the prompt to the model', async () => {
    const { root, home } = tempProject('mca-acp-res-');
    server = await startFakeAnthropic([{ text: 'Read it.' }]);
    child = spawnAcp(root, {
      ANTHROPIC_API_KEY: 'sk-ant-test-acp-res-0123',
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: home,
      HOME: home,
    });
    const connection = acp
      .client({ name: 'acp-res-e2e' })
      .onNotification('session/update', () => undefined)
      .connect(child.stream);
    await connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request('session/new', {
      cwd: root,
      mcpServers: [{ name: 'cat', command: process.execPath, args: [CATALOG], env: [] }],
    });
    const done = await connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'summarize @cat:cat://item/7 please' }],
    });
    expect(done.stopReason).toBe('end_turn');
    const body = server.requests[0]?.body;
    const sent = body ? userText(body) : '';
    expect(sent).toContain('summarize @cat:cat://item/7 please');
    expect(sent).toContain('<mcp-resource server="cat" uri="cat://item/7">');
    expect(sent).toContain('content of cat://item/7');
    expect(child.problems).toEqual([]);
    connection.close();
  }, 120_000);
});
