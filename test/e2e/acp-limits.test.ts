/**
 * What a hostile or broken ACP client cannot make mca hold: a terminal it creates after the run was cancelled is
 * killed and released; sessions beyond MCA_ACP_MAX_SESSIONS are refused (session/close frees one); a client that
 * stops reading mca's stdout is dropped with one stderr line once MCA_ACP_MAX_UNREAD_BYTES are unread. The real
 * SDK client drives the built binary and every message mca sends is checked against the SDK's schema.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import type { FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';
import { acpTestbed } from './support/acp-testbed.js';
import { connectEditor, until, type Editor } from './support/acp-editor.js';
import { processesMatching } from './support/processes.js';
import { BINARY } from './support/repl-launch.js';

const KEY = 'sk-ant-test-acp-limits-0123456789';
const { children, editors, serve, env } = acpTestbed(KEY);
let server: FakeAnthropic | undefined;

async function connect(root: string, home: string, extra: Record<string, string> = {}): Promise<Editor> {
  const child = spawnAcp(root, env(home, server!.url, extra));
  children.push(child);
  const editor = connectEditor(child);
  editors.push(editor);
  await editor.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true },
  });
  return editor;
}

async function ended(child: AcpChild): Promise<void> {
  child.child.stdin?.end();
  expect(await child.exited).toBe(0);
  expect(child.problems).toEqual([]);
}

describe('mca --acp limits against a hostile client', () => {
  it('kills and releases a terminal the editor creates after the run was cancelled', async () => {
    const { root, home } = tempProject('mca-acp-latecreate-');
    server = await serve([
      { text: 'Sleeping.', calls: [{ name: 'Bash', input: { command: 'sleep 36' } }] },
      { text: 'never reached' },
    ]);
    const editor = await connect(root, home);
    const { sessionId } = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    let answerCreate = (): void => undefined;
    editor.createGate = new Promise<void>((resolve) => (answerCreate = resolve));
    const prompt = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Sleep' }] });
    // The editor got terminal/create but has not answered it; the user cancels the turn meanwhile.
    await until(() => editor.created.length === 1);
    await editor.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(editor.terminalCalls).toEqual([]);
    // Now the editor makes the terminal and answers: mca kills and releases it at once.
    answerCreate();
    await until(() => editor.terminalCalls.includes('release term-1'));
    expect(editor.terminalCalls).toEqual(['create term-1', 'kill term-1', 'release term-1']);
    expect(processesMatching('sleep 36', root)).toEqual([]);
    await ended(children[0]!);
  }, 30_000);

  it('refuses sessions beyond MCA_ACP_MAX_SESSIONS with the limit named; earlier ones work; session/close frees one', async () => {
    const { root, home } = tempProject('mca-acp-maxsessions-');
    server = await serve([{ text: 'First still works.' }, { text: 'Third works.' }]);
    const editor = await connect(root, home, { MCA_ACP_MAX_SESSIONS: '2' });
    const initialize = children[0]!.sent.find((message) => message.id === 0) as { result?: unknown } | undefined;
    expect(JSON.stringify(initialize?.result)).toContain('"close":{}');
    const first = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    const second = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    const refused = await editor.agent.request('session/new', { cwd: root, mcpServers: [] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(acp.RequestError);
    expect((refused as acp.RequestError).message).toContain('the limit is 2');
    expect((refused as acp.RequestError).message).toContain('MCA_ACP_MAX_SESSIONS');
    // The sessions opened before the refusal still run turns.
    const answer = await editor.agent.request('session/prompt', {
      sessionId: first.sessionId,
      prompt: [{ type: 'text', text: 'Hello' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    // Closing one frees its place: a new session opens and works; the closed one is gone.
    await editor.agent.request('session/close', { sessionId: second.sessionId });
    const third = await editor.agent.request('session/new', { cwd: root, mcpServers: [] });
    const again = await editor.agent.request('session/prompt', {
      sessionId: third.sessionId,
      prompt: [{ type: 'text', text: 'Hello again' }],
    });
    expect(again.stopReason).toBe('end_turn');
    const gone = await editor.agent
      .request('session/prompt', { sessionId: second.sessionId, prompt: [{ type: 'text', text: 'x' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((gone as acp.RequestError).code).toBe(-32002);
    expect(server.requests).toHaveLength(2);
    await ended(children[0]!);
  }, 30_000);

  it('drops a client that stops reading stdout during a long streamed answer, with one stderr line and exit 1', async () => {
    const { root, home } = tempProject('mca-acp-unread-');
    // A long answer in many deltas: far more than the limit below, each a session/update.
    server = await serve([{ text: 'x'.repeat(4_000_000), chunks: 2_000 }]);
    const child = spawn(process.execPath, [BINARY, '--acp'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env(home, server.url, { MCA_ACP_MAX_UNREAD_BYTES: '1000000' }) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    const reading = (chunk: Buffer): void => void (out += chunk.toString());
    child.stdout.on('data', reading);
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: acp.PROTOCOL_VERSION } });
    send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: root, mcpServers: [] } });
    await until(() => /"id":1,"result"/.test(out));
    const sessionId = /"sessionId":"([^"]+)"/.exec(out)![1]!;
    // From here the client reads nothing more (its stdin to mca stays open).
    child.stdout.off('data', reading);
    child.stdout.pause();
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'Go' }] },
    });
    expect(await exited).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.startsWith('mca: the ACP client left'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /left \d+ bytes of mca's output unread \(the limit is 1000000, MCA_ACP_MAX_UNREAD_BYTES\)/,
    );
  }, 60_000);
});
