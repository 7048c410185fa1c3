/**
 * In-process MCP servers of an Agent SDK program (`createSdkMcpServer` + `tool()`) serve mca through the control
 * protocol (`mcp_message`): their tools are offered to the model as `mcp__<server>__<tool>`, a call reaches the
 * program's handler and its result reaches the model, permission rules apply as for any MCP tool, and
 * `mcpServerStatus()` and the init line report the server.
 */
import { createSdkMcpServer, query, tool, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, sdkOptions, sdkQuery, type SdkProject, toolResultSent } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(script: FakeStep[]): Promise<SdkProject> {
  const { root, home } = tempProject('mca-sdk-mcp-', {});
  server = await startFakeAnthropic(script);
  return { root, home, baseUrl: server.url };
}

function weatherServer(calls: Array<{ city: string }>) {
  return createSdkMcpServer({
    name: 'weather',
    version: '1.2.3',
    tools: [
      tool('forecast', 'The forecast for a city', { city: z.string() }, async (args) => {
        calls.push(args);
        return { content: [{ type: 'text', text: `Sunny in ${args.city}, 21 degrees.` }] };
      }),
    ],
  });
}

const CALL = { id: 'toolu_mcp_1', name: 'mcp__weather__forecast', input: { city: 'Lisbon' } };

describe('in-process SDK MCP servers', () => {
  it('the model is offered the tool, its call reaches the handler, and the result reaches the model', async () => {
    const sdk = await project([{ text: 'Asking.', calls: [CALL] }, { text: 'It is sunny.' }]);
    const calls: Array<{ city: string }> = [];
    const messages = await sdkQuery(sdk, 'weather in Lisbon?', {
      mcpServers: { weather: weatherServer(calls) },
      allowedTools: ['mcp__weather__forecast'],
    });
    const offered = (server!.requests[0]!.body.tools as Array<{ name: string; description: string }>) ?? [];
    expect(offered.map((entry) => entry.name)).toContain('mcp__weather__forecast');
    expect(offered.find((entry) => entry.name === 'mcp__weather__forecast')?.description).toContain(
      'The forecast for a city',
    );
    expect(calls).toEqual([{ city: 'Lisbon' }]);
    expect(toolResultSent(server!, 'toolu_mcp_1')).toContain('Sunny in Lisbon, 21 degrees.');
    const init = messages.find((message) => message.type === 'system' && message.subtype === 'init');
    expect(init).toMatchObject({ mcp_servers: [{ name: 'weather', status: 'connected' }] });
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'It is sunny.' });
  });

  it('without a rule that allows it the call is denied (-p rules) and the handler never runs', async () => {
    const sdk = await project([{ text: 'Asking.', calls: [CALL] }, { text: 'Not allowed.' }]);
    const calls: Array<{ city: string }> = [];
    const messages = await sdkQuery(sdk, 'weather in Lisbon?', { mcpServers: { weather: weatherServer(calls) } });
    expect(calls).toEqual([]);
    const result = messages.at(-1) as SDKMessage & { permission_denials?: unknown[] };
    expect(result.permission_denials).toEqual([
      expect.objectContaining({ tool_name: 'mcp__weather__forecast', tool_use_id: 'toolu_mcp_1' }),
    ]);
  });

  it('a canUseTool host is asked about the MCP tool and may allow it', async () => {
    const sdk = await project([{ text: 'Asking.', calls: [CALL] }, { text: 'Done.' }]);
    const calls: Array<{ city: string }> = [];
    const asked: string[] = [];
    await sdkQuery(sdk, 'weather in Lisbon?', {
      mcpServers: { weather: weatherServer(calls) },
      canUseTool: async (name, input) => {
        asked.push(name);
        return { behavior: 'allow', updatedInput: { ...input, city: 'Porto' } };
      },
    });
    expect(asked).toEqual(['mcp__weather__forecast']);
    expect(calls).toEqual([{ city: 'Porto' }]);
  });

  it('mcpServerStatus() reports the in-process server with its tools', async () => {
    const sdk = await project([{ text: 'Hello.' }]);
    const run = query({
      prompt: 'hi',
      options: sdkOptions(sdk, { mcpServers: { weather: weatherServer([]) } }),
    });
    const statuses = await run.mcpServerStatus();
    await collect(run);
    expect(statuses).toEqual([
      expect.objectContaining({
        name: 'weather',
        status: 'connected',
        serverInfo: { name: 'weather', version: '1.2.3' },
        tools: [expect.objectContaining({ name: 'forecast', description: 'The forecast for a city' })],
      }),
    ]);
  });
});
