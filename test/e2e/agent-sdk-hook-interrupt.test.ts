/**
 * The host's interrupt reaches a hook callback mca is waiting on (the request is withdrawn with
 * control_cancel_request, so the program's callback sees its signal abort) and the turn ends as interrupted at
 * once; a matcher's `onFailure: "block"` refuses the guarded action when its callback fails. Real Agent SDK,
 * built binary, loopback fake model.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookCallback, HookCallbackMatcher, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, sdkQuery, type SdkProject, toolResultSent } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(script: FakeStep[]): Promise<SdkProject> {
  const { root, home } = tempProject('mca-sdk-hook-stop-', {});
  server = await startFakeAnthropic(script);
  return { root, home, baseUrl: server.url };
}

const BASH_CALL = { id: 'toolu_bash_slow', name: 'Bash', input: { command: 'touch made-by-bash.txt' } };

/** A callback that answers only when its request is withdrawn; `entered` resolves when mca has asked. */
function slowHook(): { hook: HookCallback; entered: Promise<void>; aborted: Promise<void> } {
  let enter: () => void = () => undefined;
  let abort: () => void = () => undefined;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  const hook: HookCallback = (_input, _id, { signal }) =>
    new Promise((resolve) => {
      enter();
      signal.addEventListener('abort', () => {
        abort();
        resolve({});
      });
    });
  return { hook, entered, aborted };
}

describe('interrupt during a hook callback', () => {
  it('a pending PreToolUse callback is withdrawn: the call never runs and the turn ends interrupted', async () => {
    const sdk = await project([{ text: 'Making it.', calls: [BASH_CALL] }, { text: 'Next answer.' }]);
    const slow = slowHook();
    const talk = conversation(sdk, {
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [slow.hook] }] },
    });
    try {
      talk.send('make the file');
      await slow.entered;
      await talk.run.interrupt();
      expect(await talk.result()).toMatchObject({ subtype: 'error_during_execution', is_error: true });
      await slow.aborted;
      expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(false);
      expect(server!.requests).toHaveLength(1);
      expect(await talk.turn('and now?')).toMatchObject({ subtype: 'success', result: 'Next answer.' });
    } finally {
      await talk.end();
    }
  });

  it('a pending UserPromptSubmit callback is withdrawn: the prompt never reaches the model', async () => {
    const sdk = await project([{ text: 'Second answer.' }]);
    const slow = slowHook();
    let calls = 0;
    const once: HookCallback = (input, id, options) => (
      (calls += 1),
      calls === 1 ? slow.hook(input, id, options) : Promise.resolve({})
    );
    const talk = conversation(sdk, { hooks: { UserPromptSubmit: [{ hooks: [once] }] } });
    try {
      talk.send('first prompt');
      await slow.entered;
      await talk.run.interrupt();
      expect(await talk.result()).toMatchObject({ subtype: 'error_during_execution', is_error: true });
      await slow.aborted;
      expect(server!.requests).toHaveLength(0);
      expect(await talk.turn('second prompt')).toMatchObject({ subtype: 'success', result: 'Second answer.' });
      expect(JSON.stringify(server!.requests[0]!.body.messages)).not.toContain('first prompt');
    } finally {
      await talk.end();
    }
  });
});

describe('a blocked prompt', () => {
  it('a UserPromptSubmit callback that blocks: the model is never asked and the message gets an error result', async () => {
    const sdk = await project([]);
    const messages = await sdkQuery(sdk, 'delete everything', {
      hooks: {
        UserPromptSubmit: [
          { hooks: [async () => ({ decision: 'block', reason: 'Prompts like this need a ticket.' })] },
        ],
      },
    });
    expect(server!.requests).toHaveLength(0);
    const result = messages.at(-1) as SDKResultMessage;
    expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });
    expect(JSON.stringify(result)).toContain('Prompts like this need a ticket.');
  });
});

describe('onFailure on hook matchers', () => {
  it('"block": a PreToolUse callback that throws denies the call, and the model reads why', async () => {
    const sdk = await project([{ text: 'Making it.', calls: [BASH_CALL] }, { text: 'Refused, fine.' }]);
    const messages = await sdkQuery(sdk, 'make the file', {
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            onFailure: 'block',
            hooks: [
              async () => {
                throw new Error('the policy service is down');
              },
            ],
          },
        ],
      },
    });
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(false);
    expect(toolResultSent(server!, 'toolu_bash_slow')).toContain('the policy service is down');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Refused, fine.' });
  });

  it('"continue" (the default): the same failure is a notice and the call runs', async () => {
    const sdk = await project([{ text: 'Making it.', calls: [BASH_CALL] }, { text: 'Made.' }]);
    await sdkQuery(sdk, 'make the file', {
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            onFailure: 'continue',
            hooks: [
              async () => {
                throw new Error('the policy service is down');
              },
            ],
          },
        ],
      },
    });
    expect(existsSync(join(sdk.root, 'made-by-bash.txt'))).toBe(true);
  });

  it('a matcher option mca has no meaning for is named in one stderr line; the hook still runs', async () => {
    const sdk = await project([{ text: 'Hello.' }]);
    const stderr: string[] = [];
    let asked = 0;
    // contextOnly is an option the SDK forwards in initialize but does not declare publicly.
    const matcher = { hooks: [async () => ((asked += 1), {})], contextOnly: true } as HookCallbackMatcher;
    await sdkQuery(sdk, 'hi', {
      stderr: (data) => void stderr.push(data),
      hooks: { UserPromptSubmit: [matcher] },
    });
    expect(asked).toBe(1);
    expect(stderr.join('')).toContain("mca does not honour these options of the SDK host's hook matchers: contextOnly");
  });
});
