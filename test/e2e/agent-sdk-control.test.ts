/**
 * The Agent SDK's Query control methods against the built mca, with the real SDK: setMcpServers adds an npm MCP
 * server whose tools reach the next model request, toggleMcpServer/reconnectMcpServer act on it, setMcpServers({})
 * removes it, setMaxThinkingTokens sets the next request's thinking budget, and a method mca cannot serve is an
 * error answer naming it while the session goes on. Answers are typed with the SDK's own types.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSdkMcpServer,
  tool,
  type McpServerStatus,
  type McpSetServersResult,
  type SDKControlGetContextUsageResponse,
} from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, type SdkProject } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

const modules = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url));
const EVERYTHING = join(modules, 'server-everything/dist/index.js');

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(script: FakeStep[]): Promise<SdkProject> {
  const { root, home } = tempProject('mca-sdk-control-', {});
  server = await startFakeAnthropic(script);
  return { root, home, baseUrl: server.url };
}

/** The tool names of the model request `index`. */
function offered(index: number): string[] {
  const tools = (server!.requests[index]?.body.tools ?? []) as Array<{ name: string }>;
  return tools.map((tool) => tool.name);
}

describe('Query control methods', () => {
  it('setMcpServers adds a stdio server whose tools reach the next request; toggle off and {} remove them', async () => {
    const sdk = await project([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'Four.' }]);
    const talk = conversation(sdk);
    try {
      expect(await talk.turn('first')).toMatchObject({ subtype: 'success', result: 'One.' });
      expect(offered(0)).not.toContain('mcp__everything__echo');

      const added: McpSetServersResult = await talk.run.setMcpServers({
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      });
      expect(added).toEqual({ added: ['everything'], removed: [], errors: {} });
      const statuses: McpServerStatus[] = await talk.run.mcpServerStatus();
      expect(statuses).toEqual([
        expect.objectContaining({ name: 'everything', status: 'connected', scope: 'dynamic' }),
      ]);
      const usage: SDKControlGetContextUsageResponse = await talk.run.getContextUsage();
      expect(usage.mcpTools).toContainEqual(
        expect.objectContaining({ name: 'mcp__everything__echo', serverName: 'everything' }),
      );
      expect(await talk.turn('second')).toMatchObject({ subtype: 'success', result: 'Two.' });
      expect(offered(1)).toContain('mcp__everything__echo');

      // The same entry again keeps the server as it is.
      const again: McpSetServersResult = await talk.run.setMcpServers({
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      });
      expect(again).toEqual({ added: [], removed: [], errors: {} });

      await talk.run.toggleMcpServer('everything', false);
      expect(await talk.run.mcpServerStatus()).toEqual([
        expect.objectContaining({ name: 'everything', status: 'disabled' }),
      ]);
      expect(await talk.turn('third')).toMatchObject({ subtype: 'success', result: 'Three.' });
      expect(offered(2).filter((name) => name.startsWith('mcp__everything__'))).toEqual([]);

      await talk.run.toggleMcpServer('everything', true);
      await talk.run.reconnectMcpServer('everything');
      expect(await talk.run.mcpServerStatus()).toEqual([
        expect.objectContaining({ name: 'everything', status: 'connected' }),
      ]);

      const removed: McpSetServersResult = await talk.run.setMcpServers({});
      expect(removed).toEqual({ added: [], removed: ['everything'], errors: {} });
      expect(await talk.turn('fourth')).toMatchObject({ subtype: 'success', result: 'Four.' });
      expect(offered(3).filter((name) => name.startsWith('mcp__everything__'))).toEqual([]);
      expect(await talk.run.mcpServerStatus()).toEqual([]);
    } finally {
      await talk.end();
    }
  });

  it("setMcpServers with the program's in-process server: its tools reach the next request, {} removes them", async () => {
    const sdk = await project([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    const weather = createSdkMcpServer({
      name: 'weather',
      version: '1.0.0',
      tools: [tool('forecast', 'The forecast for a city', { city: z.string() }, async () => ({ content: [] }))],
    });
    const talk = conversation(sdk);
    try {
      await talk.turn('first');
      const added: McpSetServersResult = await talk.run.setMcpServers({ weather });
      expect(added).toEqual({ added: ['weather'], removed: [], errors: {} });
      await talk.turn('second');
      expect(offered(1)).toContain('mcp__weather__forecast');
      const removed: McpSetServersResult = await talk.run.setMcpServers({});
      expect(removed).toEqual({ added: [], removed: ['weather'], errors: {} });
      await talk.turn('third');
      expect(offered(2)).not.toContain('mcp__weather__forecast');
    } finally {
      await talk.end();
    }
  });

  it('a server that cannot start is in errors, a bad entry too, and toggling an unknown server is refused', async () => {
    const sdk = await project([{ text: 'One.' }]);
    const talk = conversation(sdk);
    try {
      expect(await talk.turn('first')).toMatchObject({ subtype: 'success' });
      const result: McpSetServersResult = await talk.run.setMcpServers({
        bro_ken: { command: join(sdk.root, 'no-such-server') },
        odd: { type: 'http', url: 'not a url' },
        'bro.ken': { command: join(sdk.root, 'no-such-server') },
      });
      expect(result.added).toEqual(['bro_ken']);
      expect(Object.keys(result.errors).sort()).toEqual(['bro.ken', 'bro_ken', 'odd']);
      expect(result.errors['bro.ken']).toContain('share names with the server "bro_ken"');
      await expect(talk.run.toggleMcpServer('nobody', false)).rejects.toThrow('No MCP server named "nobody"');
      await expect(talk.run.reconnectMcpServer('nobody')).rejects.toThrow('No MCP server named "nobody"');
    } finally {
      await talk.end();
    }
  });

  it('setMaxThinkingTokens sets the thinking budget of the next request; 0 turns it off', async () => {
    const sdk = await project([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    const talk = conversation(sdk);
    try {
      await talk.turn('first');
      expect(server!.requests[0]!.body.thinking).toBeUndefined();
      await talk.run.setMaxThinkingTokens(2048);
      await talk.turn('second');
      expect(server!.requests[1]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      await talk.run.setMaxThinkingTokens(0);
      await talk.turn('third');
      expect(server!.requests[2]!.body.thinking).toBeUndefined();
    } finally {
      await talk.end();
    }
  });

  it('a method mca cannot serve is an error answer naming it, and the session goes on', async () => {
    const sdk = await project([{ text: 'One.' }, { text: 'Two.' }]);
    const talk = conversation(sdk);
    try {
      await talk.turn('first');
      await expect(talk.run.stopTask('task-1')).rejects.toThrow('No task found with ID: task-1');
      // No foreground command runs: nothing matches that call id.
      expect(await talk.run.backgroundTasks('toolu_none')).toBe(false);
      await expect(talk.run.seedReadState(join(sdk.root, 'a.txt'), 1)).rejects.toThrow(/seed_read_state/);
      await expect(talk.run.setMcpPermissionModeOverride('x', 'default')).rejects.toThrow(
        /set_mcp_permission_mode_override/,
      );
      expect(await talk.turn('second')).toMatchObject({ subtype: 'success', result: 'Two.' });
    } finally {
      await talk.end();
    }
  });
});
