/**
 * The 0.2.x line of the Claude Agent SDK (still pinned by editor adapters) drives mca too: its query() spawns the
 * built binary with its own argv and initialize request; a tool call it approves in canUseTool runs, and the
 * messages it reads have Claude Code's shapes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSdkMcpServer,
  query,
  tool,
  type McpSetServersResult,
  type SDKMessage,
  type SDKUserMessage,
} from 'claude-agent-sdk-02';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkEnv } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Agent SDK 0.2.x drives mca', () => {
  it('approves a Bash call in canUseTool and reads the result', async () => {
    const { root, home } = tempProject('mca-sdk02-');
    server = await startFakeAnthropic([
      { text: 'Making it.', calls: [{ id: 'toolu_02_bash', name: 'Bash', input: { command: 'touch from-02.txt' } }] },
      { text: 'Made it.' },
    ]);
    const asked: string[] = [];
    const messages: SDKMessage[] = [];
    const run = query({
      prompt: 'make the file',
      options: {
        pathToClaudeCodeExecutable: MCA_BIN,
        cwd: root,
        env: sdkEnv({ root, home, baseUrl: server.url }),
        canUseTool: async (tool, input, { toolUseID }) => {
          asked.push(`${tool}:${toolUseID ?? ''}`);
          return { behavior: 'allow', updatedInput: input };
        },
      },
    });
    for await (const message of run) messages.push(message);
    expect(asked).toEqual(['Bash:toolu_02_bash']);
    expect(existsSync(join(root, 'from-02.txt'))).toBe(true);
    expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Made it.', is_error: false });
  });

  it('an in-process MCP server (no manifest in 0.2.x: the handshake goes over mcp_message) serves its tool', async () => {
    const { root, home } = tempProject('mca-sdk02-mcp-');
    server = await startFakeAnthropic([
      { text: 'Asking.', calls: [{ id: 'toolu_02_mcp', name: 'mcp__notes__count', input: { word: 'heron' } }] },
      { text: 'Counted.' },
    ]);
    const notes = createSdkMcpServer({
      name: 'notes',
      tools: [
        tool('count', 'Counts a word', { word: z.string() }, async (args) => ({
          content: [{ type: 'text', text: `${args.word} appears 3 times` }],
        })),
      ],
    });
    const run = query({
      prompt: 'count heron',
      options: {
        pathToClaudeCodeExecutable: MCA_BIN,
        cwd: root,
        env: sdkEnv({ root, home, baseUrl: server.url }),
        mcpServers: { notes },
        allowedTools: ['mcp__notes__count'],
      },
    });
    const messages: SDKMessage[] = [];
    for await (const message of run) messages.push(message);
    const sent = JSON.stringify(server.requests[1]?.body.messages);
    expect(sent).toContain('heron appears 3 times');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Counted.' });
  });

  it('setMcpServers and toggleMcpServer act on an npm stdio server between turns', async () => {
    const { root, home } = tempProject('mca-sdk02-set-');
    server = await startFakeAnthropic([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    const everything = fileURLToPath(
      new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
    );
    const gates = [0, 1].map(() => {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    });
    const say = (text: string): SDKUserMessage => ({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text }] },
      parent_tool_use_id: null,
    });
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield say('first');
      await gates[0]!.opened;
      yield say('second');
      await gates[1]!.opened;
      yield say('third');
    }
    const run = query({
      prompt: prompts(),
      options: { pathToClaudeCodeExecutable: MCA_BIN, cwd: root, env: sdkEnv({ root, home, baseUrl: server.url }) },
    });
    let added: McpSetServersResult | undefined;
    let results = 0;
    for await (const message of run) {
      if (message.type !== 'result') continue;
      results += 1;
      if (results === 1) {
        added = await run.setMcpServers({ everything: { command: process.execPath, args: [everything, 'stdio'] } });
        gates[0]!.open();
      } else if (results === 2) {
        await run.toggleMcpServer('everything', false);
        gates[1]!.open();
      } else break;
    }
    const names = (index: number): string[] =>
      ((server!.requests[index]?.body.tools ?? []) as Array<{ name: string }>).map((entry) => entry.name);
    expect(added).toEqual({ added: ['everything'], removed: [], errors: {} });
    expect(names(0)).not.toContain('mcp__everything__echo');
    expect(names(1)).toContain('mcp__everything__echo');
    expect(names(2)).not.toContain('mcp__everything__echo');
  });
});
