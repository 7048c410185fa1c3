/**
 * The Claude Agent SDK drives mca (issue 24): the real SDK's query() spawns the built binary through
 * pathToClaudeCodeExecutable, against the loopback fake Anthropic API. What is asserted is what an SDK program sees
 * (its messages, its canUseTool calls) and what the model is sent (the next request to the fake).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkQuery, userMessage, type SdkProject, toolResultSent } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(script: FakeStep[], files: Record<string, string> = {}): Promise<SdkProject> {
  const { root, home } = tempProject('mca-sdk-', files);
  server = await startFakeAnthropic(script);
  return { root, home, baseUrl: server.url };
}

function resultOf(messages: SDKMessage[]): SDKResultMessage {
  const result = messages.filter((message): message is SDKResultMessage => message.type === 'result').at(-1);
  if (!result) throw new Error(`no result among ${messages.map((message) => message.type).join(', ')}`);
  return result;
}

/** The tool_result block the model got for `id` in the request after the call. */

const BASH_CALL = { id: 'toolu_bash_1', name: 'Bash', input: { command: 'touch made-by-bash.txt' } };

describe('the Agent SDK drives mca', () => {
  it('runs a Bash call the host approves in canUseTool, with the call id and Claude Code input', async () => {
    const sdk = await project([{ text: 'Making the file.', calls: [BASH_CALL] }, { text: 'Done: the file exists.' }]);
    const asked: Array<{ tool: string; input: Record<string, unknown>; id: string }> = [];
    const messages = await sdkQuery(sdk, 'make the file', {
      canUseTool: async (tool, input, { toolUseID }) => {
        asked.push({ tool, input, id: toolUseID });
        return { behavior: 'allow', updatedInput: input };
      },
    });
    expect(asked).toEqual([
      { tool: 'Bash', input: expect.objectContaining({ command: 'touch made-by-bash.txt' }), id: 'toolu_bash_1' },
    ]);
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(true);
    expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init', cwd: sdk.root });
    const toolUse = messages.find(
      (message) => message.type === 'assistant' && message.message.content.some((block) => block.type === 'tool_use'),
    );
    expect(toolUse).toMatchObject({ message: { content: [{ type: 'tool_use', id: 'toolu_bash_1', name: 'Bash' }] } });
    const toolResult = messages.find((message): message is SDKUserMessage => message.type === 'user');
    expect(toolResult?.message.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_bash_1', is_error: false }),
    ]);
    expect(resultOf(messages)).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Done: the file exists.',
      num_turns: 2,
      permission_denials: [],
    });
  });

  it('a call the host denies does not run, and the model reads the host message', async () => {
    const sdk = await project([{ text: 'Making the file.', calls: [BASH_CALL] }, { text: 'Understood, not made.' }]);
    const messages = await sdkQuery(sdk, 'make the file', {
      canUseTool: async () => ({ behavior: 'deny', message: 'No files today, use the notes instead.' }),
    });
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(false);
    expect(toolResultSent(server!, 'toolu_bash_1')).toContain('No files today, use the notes instead.');
    expect(resultOf(messages)).toMatchObject({
      subtype: 'success',
      result: 'Understood, not made.',
      permission_denials: [
        {
          tool_name: 'Bash',
          tool_use_id: 'toolu_bash_1',
          tool_input: expect.objectContaining({ command: 'touch made-by-bash.txt' }),
        },
      ],
    });
  });

  it('two user messages in one streaming session: the second turn sees the first', async () => {
    const sdk = await project([{ text: 'Noted: the code word is heron.' }, { text: 'It was heron.' }]);
    let sendSecond: () => void = () => undefined;
    const secondMayGo = new Promise<void>((resolve) => (sendSecond = resolve));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield userMessage('remember the code word heron');
      await secondMayGo;
      yield userMessage('what was the code word?');
    }
    const results: SDKResultMessage[] = [];
    const { query } = await import('@anthropic-ai/claude-agent-sdk');
    const { sdkOptions } = await import('../helpers/agent-sdk.js');
    for await (const message of query({ prompt: prompts(), options: sdkOptions(sdk) })) {
      if (message.type !== 'result') continue;
      results.push(message);
      if (results.length === 1) sendSecond();
      else break;
    }
    expect(results.map((result) => result.type === 'result' && result.subtype)).toEqual(['success', 'success']);
    expect(results[1]).toMatchObject({ result: 'It was heron.' });
    expect(server!.requests).toHaveLength(2);
    // Engine v4 sends the earlier round as it was sent (its answer as an assistant message), so the whole request
    // is searched, not only the user text.
    const second = JSON.stringify(server!.requests[1]!.body.messages);
    expect(second).toContain('remember the code word heron');
    expect(second).toContain('Noted: the code word is heron.');
    expect(second).toContain('what was the code word?');
  });

  it("an appended system prompt reaches the model after mca's own", async () => {
    const sdk = await project([{ text: 'Ahoy.' }]);
    await sdkQuery(sdk, 'greet me', {
      systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer like a pirate.' },
    });
    const system = JSON.stringify(server!.requests[0]!.body.system);
    expect(system).toContain('Always answer like a pirate.');
    // mca's tool protocol and working rules stay.
    expect(system).toContain('Read before you edit');
    expect(system.indexOf('Read before you edit')).toBeLessThan(system.indexOf('Always answer like a pirate.'));
  });

  it('interrupt() stops the running turn with an error result, and the session takes the next message', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sdk = await project([
      { text: 'A very long answer that never finishes in time.', hold: { afterChars: 6, release: held } },
      { text: 'Back again.' },
    ]);
    let sendSecond: () => void = () => undefined;
    const secondMayGo = new Promise<void>((resolve) => (sendSecond = resolve));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield userMessage('tell me everything');
      await secondMayGo;
      yield userMessage('short one');
    }
    const { query } = await import('@anthropic-ai/claude-agent-sdk');
    const { sdkOptions } = await import('../helpers/agent-sdk.js');
    const run = query({ prompt: prompts(), options: sdkOptions(sdk) });
    const fake = server!;
    // Interrupt once the model is mid-answer (the fake holds the rest of its reply).
    const interrupted = (async () => {
      while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await run.interrupt();
    })();
    const results: SDKResultMessage[] = [];
    try {
      for await (const message of run) {
        if (message.type !== 'result') continue;
        results.push(message);
        if (results.length === 1) sendSecond();
        else break;
      }
    } finally {
      release();
    }
    await interrupted;
    expect(results[0]).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(results[1]).toMatchObject({ subtype: 'success', result: 'Back again.' });
  });
});
