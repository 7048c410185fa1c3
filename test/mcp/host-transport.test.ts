/**
 * The transport to an SDK host's in-process MCP server, under the official client: what the host answers (a good
 * `mcp_response`, a malformed one, an error) is what the client sees, and a manifest answers the handshake and the
 * first tools/list without asking the host.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { HostServerTransport, manifestOf } from '../../src/mcp/host-transport.js';
import { loadMcpLibrary } from '../../src/mcp/load-client.js';

const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: {} },
  serverInfo: { name: 'srv', version: '1.0.0' },
};
const TOOLS = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };

async function connected(answer: (message: JSONRPCMessage) => unknown, withManifest = true) {
  const library = await loadMcpLibrary();
  const asked: string[] = [];
  const transport = new HostServerTransport(
    async (message) => {
      if ('method' in message) asked.push(message.method);
      const reply = answer(message);
      return reply instanceof Error ? { ok: false, error: reply.message } : { ok: true, response: reply };
    },
    library,
    withManifest ? manifestOf({ initializeResult: INIT, toolsListResult: TOOLS }) : undefined,
  );
  const client = new library.Client({ name: 'test', version: '0' }, { capabilities: {} });
  await client.connect(transport, { timeout: 2000 });
  return { client, asked };
}

describe('HostServerTransport', () => {
  it('a manifest answers initialize and the first tools/list; tools/call goes to the host', async () => {
    const { client, asked } = await connected((message) => ({
      jsonrpc: '2.0',
      id: 'id' in message ? message.id : 0,
      result: { content: [{ type: 'text', text: 'echoed' }] },
    }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'echoed' }]);
    expect(asked).toEqual(['tools/call']);
  });

  it('without a manifest the handshake goes to the host', async () => {
    const { asked } = await connected(
      (message) =>
        'method' in message && 'id' in message && message.method === 'initialize'
          ? { jsonrpc: '2.0', id: message.id, result: INIT }
          : { jsonrpc: '2.0', result: {}, id: 0 },
      false,
    );
    expect(asked).toEqual(['initialize', 'notifications/initialized']);
  });

  it('a malformed mcp_response or an error answer is a JSON-RPC error for that request, never a hang', async () => {
    const { client } = await connected((message) =>
      'method' in message && message.method === 'tools/call' && 'params' in message && message.params?.name === 'bad'
        ? { not: 'json-rpc' }
        : new Error('handler threw'),
    );
    await expect(client.callTool({ name: 'bad', arguments: {} }, { timeout: 2000 })).rejects.toThrow(/malformed/);
    await expect(client.callTool({ name: 'other', arguments: {} }, { timeout: 2000 })).rejects.toThrow(/handler threw/);
  });
});
