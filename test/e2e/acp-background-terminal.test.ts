/**
 * Background commands in the editor's terminal (issue 39): with a client that offers `terminal`, Bash
 * `run_in_background` runs in a terminal of the editor's (`terminal/create`, shown in the call), returns at once
 * with a task id; TaskOutput reads it through `terminal/output`, its end (`terminal/wait_for_exit`) releases it, and
 * TaskStop ends another through `terminal/kill`. On the old tree the background command ran in mca itself and the
 * editor saw no terminal for it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import type { FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { userText } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';
import { connectEditor, updatesOf } from './support/acp-editor.js';
import { processesGone } from './support/processes.js';

const KEY = 'sk-ant-test-acp-bg-terminal-0123456789';
const { children, editors, serve, env } = acpTestbed(KEY);

const BACKGROUND = 'echo bg-start; until [ -f go ]; do sleep 0.05; done; echo bg-end';

describe('mca --acp: background commands in the editor terminal', () => {
  it('starts in a terminal of its own, is read through terminal/output, released at its end, stopped by kill', async () => {
    const { root, home } = tempProject('mca-acp-bg-term-');
    const marker = `mca-acp-bg-${process.pid}`;
    const seen: FakeRequestBody[] = [];
    const step =
      (reply: { text: string; calls?: Array<{ name: string; input: Record<string, unknown> }> }) =>
      (body: FakeRequestBody) => {
        seen.push(body);
        return reply;
      };
    const server = await serve([
      step({ text: 'Start.', calls: [{ name: 'Bash', input: { command: BACKGROUND, run_in_background: true } }] }),
      step({ text: 'Let it end.', calls: [{ name: 'Bash', input: { command: 'touch go' } }] }),
      step({
        text: 'Read.',
        calls: [{ name: 'TaskOutput', input: { task_id: 'bash_1', block: true, timeout: 60000 } }],
      }),
      step({
        text: 'Another.',
        calls: [{ name: 'Bash', input: { command: `sleep 291; true ${marker}`, run_in_background: true } }],
      }),
      step({ text: 'Stop it.', calls: [{ name: 'TaskStop', input: { task_id: 'bash_2' } }] }),
      step({ text: 'Done.' }),
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const editor = connectEditor(child);
    editors.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true },
    });
    const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    const answer = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Run the background work' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(existsSync(join(root, 'go'))).toBe(true);

    // The background command went to the editor (term-1), returned at once with its id, and shows in its call.
    expect(editor.created[0]).toMatchObject({ sessionId, args: ['-c', BACKGROUND], cwd: root });
    expect(userText(seen[1] as FakeRequestBody)).toContain('Command running in background with ID: bash_1');
    const first = updatesOf(editor, 'tool_call').find((call) => call.title.startsWith('Bash'));
    const shown = updatesOf(editor, 'tool_call_update').filter((update) => update.toolCallId === first?.toolCallId);
    expect(JSON.stringify(shown)).toContain('"terminalId":"term-1"');

    // TaskOutput waited for its end and got its whole output through the terminal; the terminal was then released.
    const read = userText(seen[3] as FakeRequestBody);
    expect(read).toMatch(/Task bash_1: completed \(exit code 0\)\nbg-start\nbg-end/);
    const calls = editor.terminalCalls;
    expect(calls).toContain('output term-1');
    expect(calls.indexOf('release term-1')).toBeGreaterThan(calls.indexOf('wait_for_exit term-1'));

    // The second (term-3: `touch go` was term-2) was stopped through terminal/kill, and its sleep is gone.
    expect(editor.created[2]?.args).toEqual(['-c', `sleep 291; true ${marker}`]);
    expect(userText(seen[5] as FakeRequestBody)).toContain('Successfully stopped task: bash_2');
    expect(calls).toContain('kill term-3');
    expect(await processesGone(marker, root)).toEqual([]);

    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 60_000);
});
