/**
 * Background tasks' progress in the editor while they run (issue 39), through the built binary over ACP with a
 * client that offers no terminal: the Bash call that started a task is updated (`tool_call_update` `in_progress`)
 * with the task's last output line while the task runs and before the model reads it (the test lets the task end
 * only once the editor has seen that update), then `completed` with Claude Code's summary when it ends. On the old
 * tree the editor heard nothing of the task after its call returned.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';
import { connectEditor, until, updatesOf } from './support/acp-editor.js';

const KEY = 'sk-ant-test-acp-bg-progress-0123456789';
const { children, editors, serve, env } = acpTestbed(KEY);

const BACKGROUND = 'echo step-one; until [ -f go ]; do sleep 0.05; done; echo step-two';

describe('mca --acp: background task progress', () => {
  it("updates the starting call with the task's output while it runs, then with its end", async () => {
    const { root, home } = tempProject('mca-acp-bg-progress-');
    const server = await serve([
      {
        text: 'Start.',
        calls: [{ id: 'toolu_bg', name: 'Bash', input: { command: BACKGROUND, run_in_background: true } }],
      },
      { text: 'Read.', calls: [{ name: 'TaskOutput', input: { task_id: 'bash_1', block: true, timeout: 60000 } }] },
      { text: 'Done.' },
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const editor = connectEditor(child);
    editors.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    });
    const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'bypassPermissions' });
    const ofTask = () => updatesOf(editor, 'tool_call_update').filter((update) => update.toolCallId === 'toolu_bg');
    const said = (update: { content?: unknown }) => JSON.stringify(update.content ?? null);
    const answer = editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Run the background work' }],
    });
    // The task waits for `go`: it is made only once the editor has the progress update.
    await until(() => ofTask().some((update) => said(update).includes('Last output: step-one')));
    const running = ofTask().find((update) => said(update).includes('Last output: step-one'));
    expect(running).toMatchObject({ status: 'in_progress' });
    writeFileSync(join(root, 'go'), '');
    expect((await answer).stopReason).toBe('end_turn');
    await until(() => ofTask().some((update) => said(update).includes('completed (exit code 0)')));
    const updates = ofTask();
    const ended = updates.findIndex((update) => said(update).includes('completed (exit code 0)'));
    expect(updates[ended]).toMatchObject({ status: 'completed' });
    expect(said(updates[ended] ?? {})).toContain('Background command \\"' + BACKGROUND.replace(/"/g, '\\"'));
    expect(ended).toBeGreaterThan(updates.indexOf(running ?? updates[0]!));
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
  }, 60_000);
});
