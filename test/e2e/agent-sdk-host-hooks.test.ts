/**
 * The Agent SDK's hook callbacks (`query({options: {hooks}})`) run in mca's hook engine: mca sends `hook_callback`
 * to the host when the event fires and reads the answer as a command hook's JSON output. Asserted from the model's
 * side (what the next request carries) and the disk (a blocked command never ran).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookCallback, HookInput, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkQuery, type SdkProject, toolResultSent } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(script: FakeStep[], files: Record<string, string> = {}): Promise<SdkProject> {
  const { root, home } = tempProject('mca-sdk-hooks-', files);
  server = await startFakeAnthropic(script);
  return { root, home, baseUrl: server.url };
}

function resultOf(messages: SDKMessage[]): SDKMessage | undefined {
  return messages.filter((message) => message.type === 'result').at(-1);
}

const BASH_CALL = { id: 'toolu_bash_hook', name: 'Bash', input: { command: 'touch made-by-bash.txt' } };
const READ_CALL = { id: 'toolu_read_hook', name: 'Read', input: { path: 'notes.md' } };

describe('SDK hook callbacks', () => {
  it('a PreToolUse callback that denies blocks the Bash call: it never runs and the model reads the reason', async () => {
    const sdk = await project([{ text: 'Making it.', calls: [BASH_CALL] }, { text: 'Blocked, fine.' }]);
    const seen: HookInput[] = [];
    const guard: HookCallback = async (input, toolUseId) => {
      seen.push(input);
      expect(toolUseId).toBe('toolu_bash_hook');
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'No shell commands in this repository (policy 7).',
        },
      };
    };
    const messages = await sdkQuery(sdk, 'make the file', {
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] },
    });
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(false);
    expect(toolResultSent(server!, 'toolu_bash_hook')).toContain('No shell commands in this repository (policy 7).');
    expect(seen).toEqual([
      expect.objectContaining({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: expect.objectContaining({ command: 'touch made-by-bash.txt' }),
        tool_use_id: 'toolu_bash_hook',
        cwd: sdk.root,
      }),
    ]);
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'Blocked, fine.' });
  });

  it('a callback whose matcher does not select the tool is not asked, and the call runs', async () => {
    const sdk = await project([{ text: 'Making it.', calls: [BASH_CALL] }, { text: 'Made.' }]);
    let asked = 0;
    await sdkQuery(sdk, 'make the file', {
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [async () => ((asked += 1), {})] }] },
    });
    expect(asked).toBe(0);
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(true);
  });

  it('additionalContext of a PreToolUse callback reaches the model with the call result', async () => {
    const sdk = await project([{ text: 'Reading.', calls: [READ_CALL] }, { text: 'Read it.' }], {
      'notes.md': 'the notes\n',
    });
    const paths: unknown[] = [];
    await sdkQuery(sdk, 'read the notes', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Read',
            hooks: [
              async (input) => {
                if (input.hook_event_name === 'PreToolUse')
                  paths.push((input.tool_input as { file_path?: unknown }).file_path);
                return {
                  hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'The ticket is ABC-42.' },
                };
              },
            ],
          },
        ],
      },
    });
    expect(paths).toEqual([join(sdk.root, 'notes.md')]);
    const sent = toolResultSent(server!, 'toolu_read_hook');
    expect(sent).toContain('the notes');
    expect(sent).toContain('The ticket is ABC-42.');
  });

  it('a callback that throws is a notice: the call still runs', async () => {
    const sdk = await project([{ text: 'Reading.', calls: [READ_CALL] }, { text: 'Read it.' }], {
      'notes.md': 'the notes\n',
    });
    const stderr: string[] = [];
    const messages = await sdkQuery(sdk, 'read the notes', {
      stderr: (data) => void stderr.push(data),
      hooks: {
        PreToolUse: [
          {
            hooks: [
              async () => {
                throw new Error('the hook broke');
              },
            ],
          },
        ],
      },
    });
    expect(toolResultSent(server!, 'toolu_read_hook')).toContain('the notes');
    expect(stderr.join('')).toContain('the hook broke');
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'Read it.' });
  });

  it('a callback that never answers is withdrawn at its timeout: a notice, and the call runs', async () => {
    const sdk = await project([{ text: 'Reading.', calls: [READ_CALL] }, { text: 'Read it.' }], {
      'notes.md': 'the notes\n',
    });
    const stderr: string[] = [];
    const messages = await sdkQuery(sdk, 'read the notes', {
      stderr: (data) => void stderr.push(data),
      hooks: { PreToolUse: [{ matcher: 'Read', timeout: 1, hooks: [() => new Promise(() => undefined)] }] },
    });
    expect(toolResultSent(server!, 'toolu_read_hook')).toContain('the notes');
    expect(stderr.join('')).toContain('timed out after 1 s');
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'Read it.' });
  });

  it("a UserPromptSubmit callback's additionalContext reaches the model with the prompt", async () => {
    const sdk = await project([{ text: 'Noted.' }]);
    await sdkQuery(sdk, 'what is the ticket?', {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              async () => ({
                hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Ticket: ABC-42.' },
              }),
            ],
          },
        ],
      },
    });
    const sent = JSON.stringify(server!.requests[0]!.body.messages);
    expect(sent).toContain('what is the ticket?');
    expect(sent).toContain('Ticket: ABC-42.');
  });
});
