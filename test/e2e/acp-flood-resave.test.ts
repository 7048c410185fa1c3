/**
 * Two ways a real editor stresses `mca --acp`, over the SDK's client against the built binary and the fake model
 * (every message mca sends checked against the SDK's schema):
 * - a client flooding valid requests while a turn runs gets JSON-RPC errors for what is over the pending limit,
 *   every request is answered, and the turn still completes;
 * - an edit through `fs/write_text_file` that the editor then saves (the file's mtime moves, its text is what mca
 *   wrote) leaves the file fresh: the next Edit succeeds; a save of different text is still a conflict.
 */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';
import { connectEditor, until, updatesOf } from './support/acp-editor.js';

const KEY = 'sk-ant-test-acp-flood-0123456789';
const { children, editors, serve, env } = acpTestbed(KEY);
let server: FakeAnthropic | undefined;

const FLOOD = 3000;

describe('mca --acp under a flooding client and an editor that saves', () => {
  it('answers a flood of requests during a turn, refusing the excess with -32800, and the turn completes', async () => {
    const { root, home } = tempProject('mca-acp-flood-');
    let release: () => void = () => undefined;
    server = await serve([
      {
        text: 'The long answer arrives after the flood.',
        hold: { afterChars: 4, release: new Promise<void>((resolve) => (release = resolve)) },
      },
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const editor = connectEditor(child);
    editors.push(editor);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    await editor.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    const turn = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Go on' }] });
    await until(() => server!.requests.length === 1);

    // The flood: prompts for the busy session, session lists, loads of unknown sessions, and cancels of a
    // session that does not exist, as fast as the pipe takes them.
    const lines: string[] = [];
    for (let n = 0; n < FLOOD; n += 1) {
      const id = `flood-${n}`;
      const kind = n % 3;
      const request =
        kind === 0
          ? { method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: `again ${n}` }] } }
          : kind === 1
            ? { method: 'session/list', params: { cwd: root } }
            : { method: 'session/load', params: { sessionId: `nope-${n % 7}`, cwd: root, mcpServers: [] } };
      lines.push(JSON.stringify({ jsonrpc: '2.0', id, ...request }));
      lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'not-a-session' } }));
    }
    // The SDK client logs each answer to a request it did not send itself; those lines are the flood's, not news.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    child.raw(lines.join('\n'));
    const answered = () => child.sent.filter((m) => typeof m.id === 'string' && m.id.startsWith('flood-'));
    await until(() => answered().length === FLOOD);
    const refused = answered().filter((m) => (m.error as { code?: number } | undefined)?.code === -32800);
    expect(refused.length).toBeGreaterThan(0);
    expect((refused[0]?.error as { message: string }).message).toMatch(/the limit is \d+/);
    // No flooded prompt ran: each was refused as over the limit or as the session being busy.
    expect(answered().filter((m) => 'result' in m && JSON.stringify(m.result).includes('stopReason'))).toEqual([]);
    expect(server.requests).toHaveLength(1);

    // The running turn was not cancelled nor starved: it completes once the model goes on.
    release();
    expect((await turn).stopReason).toBe('end_turn');
    const said = updatesOf(editor, 'agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    expect(said).toContain('The long answer arrives after the flood.');
    // And mca keeps serving afterwards.
    const listed = await editor.agent.request('session/list', { cwd: root });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 60_000);

  it('an Edit after the editor saved the text mca wrote succeeds; a save of other text is a conflict', async () => {
    const { root, home } = tempProject('mca-acp-resave-', { 'notes.txt': 'alpha beta gamma\n' });
    const notes = join(root, 'notes.txt');
    server = await serve([
      { text: 'Reading.', calls: [{ name: 'Read', input: { path: 'notes.txt' } }] },
      {
        text: 'First edit.',
        calls: [{ name: 'Edit', input: { path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' } }],
      },
      { text: 'Edited once.' },
      {
        text: 'Second edit.',
        calls: [{ name: 'Edit', input: { path: 'notes.txt', old_string: 'beta', new_string: 'BETA' } }],
      },
      { text: 'Edited twice.' },
      {
        text: 'Third edit.',
        calls: [{ name: 'Edit', input: { path: 'notes.txt', old_string: 'gamma', new_string: 'GAMMA' } }],
      },
      { text: 'Could not.' },
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const editor = connectEditor(child);
    editors.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'acceptEdits' });
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Edit alpha' }] });
    expect(readFileSync(notes, 'utf8')).toBe('alpha beta gamma\n');
    // The editor saves the buffer mca wrote once the turn is over: the text on disk is mca's, its mtime new.
    writeFileSync(notes, editor.writes[0]!.content);
    const later = new Date(Date.now() + 60_000);
    utimesSync(notes, later, later);

    // The disk's mtime is not what mca saw when it wrote, but the text is: the next Edit goes through.
    const second = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Edit beta' }],
    });
    expect(second.stopReason).toBe('end_turn');
    const afterSecond = JSON.stringify(server.requests[4]?.body.messages);
    expect(afterSecond).not.toContain('modified externally');
    expect(editor.writes.map((w) => w.content)).toEqual(['ALPHA beta gamma\n', 'ALPHA BETA gamma\n']);

    // Someone else changes the text on disk: that is still a conflict, and nothing is written.
    writeFileSync(notes, 'ALPHA BETA gamma, and more\n');
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Edit gamma' }] });
    expect(JSON.stringify(server.requests[6]?.body.messages)).toContain('modified externally');
    expect(editor.writes).toHaveLength(2);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 60_000);
});
