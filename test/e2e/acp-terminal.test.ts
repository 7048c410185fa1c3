/**
 * Bash in the editor's terminal: a client that offers `terminal` gets the model's commands as `terminal/create`
 * (after the permission question), sees the terminal in the tool call while it runs, and the model gets the same
 * result text as from mca's own run. Cancel and Bash's timeout end the command through `terminal/kill`. Every
 * message mca sends is checked against the SDK's schema (support/acp-client.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';
import { connectEditor, until, updatesOf, type Editor } from './support/acp-editor.js';
import { processesMatching } from './support/processes.js';

const KEY = 'sk-ant-test-acp-terminal-0123456789';
const { children, editors, serve, env } = acpTestbed(KEY);
let server: FakeAnthropic | undefined;

async function open(root: string, home: string, terminal: boolean): Promise<{ editor: Editor; sessionId: string }> {
  const child = spawnAcp(root, env(home, server!.url));
  children.push(child);
  const editor = connectEditor(child);
  editors.push(editor);
  await editor.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal },
  });
  const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
  return { editor, sessionId };
}

const COMMAND = 'echo ran >> runs.txt; echo from-terminal; echo oops >&2; exit 3';

describe('mca --acp with a client that offers terminals', () => {
  it('runs an approved Bash call in the editor terminal, shows it in the call, and the model gets its output', async () => {
    const { root, home } = tempProject('mca-acp-term-');
    server = await serve([
      { text: 'Running.', calls: [{ name: 'Bash', input: { command: COMMAND } }] },
      { text: 'It failed with 3.' },
    ]);
    const { editor, sessionId } = await open(root, home, true);
    const answer = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Run the script' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    // Asked first, then run once, by the editor, in the project with mca's shell and environment.
    expect(editor.asked).toHaveLength(1);
    expect(editor.created).toHaveLength(1);
    expect(editor.created[0]).toMatchObject({ sessionId, args: ['-c', COMMAND], cwd: root });
    expect(editor.created[0]?.env?.some((entry) => entry.name === 'GIT_PAGER' && entry.value === 'cat')).toBe(true);
    expect(editor.created[0]?.env?.some((entry) => entry.value.includes(KEY))).toBe(false);
    expect(readFileSync(join(root, 'runs.txt'), 'utf8')).toBe('ran\n');
    // The call shows the terminal while it runs; its last update keeps it (no text replaces it).
    const bash = updatesOf(editor, 'tool_call').find((call) => call.title.startsWith('Bash'));
    const calls = updatesOf(editor, 'tool_call_update').filter((u) => u.toolCallId === bash?.toolCallId);
    expect(calls[0]).toMatchObject({ status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }] });
    expect(calls.at(-1)?.status).toBe('failed');
    expect(calls.at(-1)?.content).toBeUndefined();
    // The terminal was added to the call before mca released it; exit, output, release in order.
    expect(editor.terminalCalls).toEqual(['create term-1', 'wait_for_exit term-1', 'output term-1', 'release term-1']);
    const shownAt = editor.updates.findIndex(
      (n) => n.update.sessionUpdate === 'tool_call_update' && JSON.stringify(n.update).includes('term-1'),
    );
    expect(shownAt).toBeGreaterThanOrEqual(0);
    // The model gets the output and the exit code, as from mca's own run.
    const result = JSON.stringify(server.requests[1]?.body.messages);
    expect(result).toContain('Command exited with code 3.');
    expect(result).toContain('from-terminal');
    expect(result).toContain('oops');
    expect(result).toContain('[exit code 3]');
    const child = children[0]!;
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 30_000);

  it('without the capability, mca runs the command itself and the call shows its text', async () => {
    const { root, home } = tempProject('mca-acp-noterm-');
    server = await serve([
      { text: 'Running.', calls: [{ name: 'Bash', input: { command: 'echo ran >> runs.txt; echo local-run' } }] },
      { text: 'Done.' },
    ]);
    const { editor, sessionId } = await open(root, home, false);
    const answer = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Run it' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(editor.created).toEqual([]);
    expect(readFileSync(join(root, 'runs.txt'), 'utf8')).toBe('ran\n');
    const done = updatesOf(editor, 'tool_call_update').at(-1);
    expect(done?.content).toEqual([{ type: 'content', content: { type: 'text', text: 'local-run' } }]);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('local-run');
    const child = children[0]!;
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 30_000);

  it("Bash's timeout and session/cancel kill the editor's terminal; a rejected or hook-blocked call never reaches it", async () => {
    const { root, home } = tempProject('mca-acp-termkill-');
    server = await serve([
      { text: 'Rejected.', calls: [{ name: 'Bash', input: { command: 'touch never.txt' } }] },
      { text: 'Not run.' },
      { text: 'Hooked.', calls: [{ name: 'Bash', input: { command: 'echo blocked-by-hook > hooked.txt' } }] },
      { text: 'The hook stopped it.' },
      { text: 'Short.', calls: [{ name: 'Bash', input: { command: 'sleep 38', timeout_ms: 500 } }] },
      { text: 'It timed out.' },
      { text: 'Long.', calls: [{ name: 'Bash', input: { command: 'sleep 37' } }] },
      { text: 'never reached' },
    ]);
    // A PreToolUse hook (as Claude Code documents them: exit 2 blocks) that stops commands naming blocked-by-hook.
    mkdirSync(home, { recursive: true });
    const hook = 'grep -q blocked-by-hook && { echo "not this one" >&2; exit 2; } || exit 0';
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } }),
    );
    const { editor, sessionId } = await open(root, home, true);
    // mca's decision point still comes first: a rejected command is never sent to the terminal.
    editor.answers.push('reject_once');
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Touch it' }] });
    expect(editor.created).toEqual([]);
    expect(existsSync(join(root, 'never.txt'))).toBe(false);
    // Nor is a command a PreToolUse hook blocks; the model gets the hook's reason.
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Run the hooked one' }] });
    expect(editor.created).toEqual([]);
    expect(existsSync(join(root, 'hooked.txt'))).toBe(false);
    expect(JSON.stringify(server.requests[3]?.body.messages)).toContain('not this one');

    // Bash's own timeout kills the terminal; the model gets the timeout result.
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Sleep briefly' }] });
    expect(editor.terminalCalls).toEqual([
      'create term-1',
      'wait_for_exit term-1',
      'kill term-1',
      'output term-1',
      'release term-1',
    ]);
    expect(JSON.stringify(server.requests[5]?.body.messages)).toContain(
      'Command timed out after 500 ms and was killed.',
    );
    expect(processesMatching('sleep 38', root)).toEqual([]);

    // Cancel while the command runs in the terminal: it is killed and the prompt answers `cancelled`.
    const long = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Sleep long' }] });
    await until(() => editor.terminalCalls.includes('wait_for_exit term-2'));
    expect(processesMatching('sleep 37', root).length).toBe(1);
    await editor.agent.notify('session/cancel', { sessionId });
    expect((await long).stopReason).toBe('cancelled');
    expect(editor.terminalCalls.slice(-3)).toEqual(['kill term-2', 'output term-2', 'release term-2']);
    expect(processesMatching('sleep 37', root)).toEqual([]);
    const child = children[0]!;
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 60_000);
});
