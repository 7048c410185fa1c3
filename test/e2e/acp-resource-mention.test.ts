/**
 * `mca --acp`: an `@server:uri` mention in an editor's prompt attaches the MCP resource, as it does in the REPL, `-p`
 * and stream-json (all four fronts open their session the same way, src/driver/open-session.ts). Driven by the ACP
 * SDK's client over the built binary, with the catalog fixture server the editor passes in `session/new` and the
 * loopback fake model: the model's first request carries the resource's text.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { userText } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';

const CATALOG = fileURLToPath(new URL('../fixtures/mcp/catalog-server.mjs', import.meta.url));
const bed = acpTestbed('sk-ant-test-acp-res-0123');

describe('mca --acp @server:uri', () => {
  it('the resource text of the mentioned MCP resource goes with the prompt to the model', async () => {
    const { root, home } = tempProject('mca-acp-res-');
    const server = await bed.serve([{ text: 'Read it.' }]);
    const child = spawnAcp(root, bed.env(home, server.url));
    bed.children.push(child);
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
