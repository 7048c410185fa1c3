/**
 * Background tasks through the real Agent SDK against the built mca (issue 39): the model starts a background
 * shell, the program sees `task_started`, stops it with `stopTask()`, sees `task_notification` (stopped); a second
 * one left running is gone once the session ends.
 */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, type SdkProject } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { processesGone, processesMatching } from './support/processes.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function systemOf(messages: readonly SDKMessage[], subtype: string): Array<Record<string, unknown>> {
  return messages
    .filter((message) => message.type === 'system' && (message as { subtype?: string }).subtype === subtype)
    .map((message) => message as unknown as Record<string, unknown>);
}

describe('background tasks through the Agent SDK', () => {
  it('task_started, stopTask() and its task_notification; nothing left after the session ends', async () => {
    const marker = `mca-sdk-bg-${process.pid}-${Date.now()}`;
    const script: FakeStep[] = [
      {
        text: 'Starting it.',
        calls: [{ name: 'Bash', input: { command: `sleep 299; true ${marker}-a`, run_in_background: true } }],
      },
      { text: 'Started.' },
      {
        text: 'Another.',
        calls: [{ name: 'Bash', input: { command: `sleep 296; true ${marker}-b`, run_in_background: true } }],
      },
      { text: 'Left running.' },
    ];
    const { root, home } = tempProject('mca-sdk-bg-', {});
    server = await startFakeAnthropic(script);
    const sdk: SdkProject = { root, home, baseUrl: server.url };
    const talk = conversation(sdk, { permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    try {
      expect(await talk.turn('start a server')).toMatchObject({ subtype: 'success', result: 'Started.' });
      const [started] = systemOf(talk.messages, 'task_started');
      expect(started).toMatchObject({ task_type: 'local_bash', description: `sleep 299; true ${marker}-a` });
      const taskId = started?.task_id as string;
      expect(processesMatching(`${marker}-a`, root)).not.toEqual([]);

      await talk.run.stopTask(taskId);
      expect(await processesGone(`${marker}-a`, root)).toEqual([]);
      expect(processesMatching('sleep 299', root)).toEqual([]);

      expect(await talk.turn('another')).toMatchObject({ subtype: 'success', result: 'Left running.' });
      const [notified] = systemOf(talk.messages, 'task_notification');
      expect(notified).toMatchObject({ task_id: taskId, status: 'stopped' });
      expect(typeof notified?.output_file).toBe('string');
      expect(processesMatching(`${marker}-b`, root)).not.toEqual([]);
    } finally {
      await talk.end();
    }
    expect(await processesGone(marker, root)).toEqual([]);
    expect(processesMatching('sleep 296', root)).toEqual([]);
  });

  it('backgroundTasks(toolUseId) moves a running foreground command to the background (Ctrl+B)', async () => {
    const marker = `mca-sdk-fg-${process.pid}-${Date.now()}`;
    const slow = `echo early; until [ -f go ]; do sleep 0.05; done; echo late; true ${marker}`;
    const seen: string[] = [];
    const script: FakeStep[] = [
      { text: 'Running it.', calls: [{ id: 'toolu_fg', name: 'Bash', input: { command: slow } }] },
      (body) => {
        seen.push(JSON.stringify(body.messages?.at(-1)?.content ?? ''));
        return { text: 'Release it.', calls: [{ name: 'Bash', input: { command: 'touch go' } }] };
      },
      { text: 'Read it.', calls: [{ name: 'TaskOutput', input: { task_id: 'bash_1', timeout: 60000 } }] },
      (body) => {
        seen.push(JSON.stringify(body.messages?.at(-1)?.content ?? ''));
        return { text: 'Both lines.' };
      },
    ];
    const { root, home } = tempProject('mca-sdk-fg-', {});
    server = await startFakeAnthropic(script);
    const sdk: SdkProject = { root, home, baseUrl: server.url };
    const talk = conversation(sdk, { permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    try {
      talk.send('run the slow one');
      const result = talk.result();
      // The command registers once it runs: ask until it has (a state, not a time).
      let moved = false;
      for (let tries = 0; tries < 400 && !moved; tries++) {
        moved = await talk.run.backgroundTasks('toolu_fg');
        if (!moved) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(moved).toBe(true);
      expect(await result).toMatchObject({ subtype: 'success', result: 'Both lines.' });
      expect(seen[0]).toContain('The user moved this command to the background');
      expect(seen[0]).toContain('bash_1');
      expect(seen[1]).toMatch(/Task bash_1: completed \(exit code 0\)\\nearly\\nlate/);
      expect(systemOf(talk.messages, 'task_started')).toEqual([
        expect.objectContaining({ task_id: 'bash_1', tool_use_id: 'toolu_fg' }),
      ]);
    } finally {
      await talk.end();
    }
    expect(await processesGone(marker, root)).toEqual([]);
  });
});
