/**
 * `mca --acp` driven by the ACP SDK's own client over the built binary's stdio, against the loopback fake model;
 * every message mca sends is checked against the schema the SDK package ships (support/acp-client.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { spawnAcp, type AcpChild } from './support/acp-client.js';
import { processesMatching } from './support/processes.js';

const KEY = 'sk-ant-test-acp-0123456789';
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
let server: FakeAnthropic | undefined;
const children: AcpChild[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
  await server?.close();
  server = undefined;
});

interface Client {
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  asked: acp.RequestPermissionRequest[];
  writes: acp.WriteTextFileRequest[];
  reads: string[];
  /** Option ids the next permission questions are answered with (none left: cancelled). */
  answers: string[];
  close(): void;
}

function connect(child: AcpChild, buffers: Record<string, string> = {}): Client {
  const client: Omit<Client, 'agent' | 'close'> = { updates: [], asked: [], writes: [], reads: [], answers: [] };
  const app = acp
    .client({ name: 'acp-e2e' })
    .onNotification('session/update', ({ params }) => void client.updates.push(params))
    .onRequest('session/request_permission', ({ params }) => {
      client.asked.push(params);
      const optionId = client.answers.shift();
      return { outcome: optionId ? { outcome: 'selected', optionId } : { outcome: 'cancelled' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      client.reads.push(params.path);
      return { content: buffers[params.path] ?? readFileSync(params.path, 'utf8') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      client.writes.push(params);
      buffers[params.path] = params.content;
      return {};
    });
  const connection = app.connect(child.stream);
  return { ...client, agent: connection.agent, close: () => connection.close() };
}

function env(home: string, url: string): Record<string, string> {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url, MCA_HOME: home, HOME: home };
}

const initialize = (agent: acp.ClientContext) =>
  agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
  });

function updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(client: Client, kind: K) {
  return client.updates
    .map((notification) => notification.update)
    .filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: K }> => update.sessionUpdate === kind);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('mca --acp with the ACP SDK client', () => {
  it('runs sessions: MCP server, Read and Edit through the editor, a rejected Bash call, memory, cancel, hooks, load', async () => {
    const { root, home } = tempProject('mca-acp-', { 'notes.txt': 'the disk text\n' });
    const notes = join(root, 'notes.txt');
    const hooked = join(dirname(root), 'hooked');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${hooked}` }] }] } }),
    );
    let release: () => void = () => undefined;
    server = await startFakeAnthropic([
      { text: 'Reading.', calls: [{ name: 'Read', input: { path: 'notes.txt' } }] },
      { text: 'It says buffered.' },
      { text: 'Running.', calls: [{ name: 'Bash', input: { command: 'touch ran.txt' } }] },
      { text: 'The command was not run.' },
      {
        text: 'Editing.',
        calls: [{ name: 'Edit', input: { path: 'notes.txt', old_string: 'buffered', new_string: 'edited' } }],
      },
      { text: 'Edited.' },
      {
        text: 'thinking slowly',
        hold: { afterChars: 8, release: new Promise<void>((resolve) => (release = resolve)) },
      },
      { text: 'never needed' },
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const client = connect(child, { [notes]: 'the buffered text\n' });
    const init = await initialize(client.agent);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    expect(init.agentInfo?.name).toBe('mca');

    const created = await client.agent.request('session/new', {
      cwd: root,
      mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] }],
    });
    const sessionId = created.sessionId;
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'default',
      'acceptEdits',
      'plan',
      'bypassPermissions',
    ]);

    // A prompt that reads a file: the text is the editor's buffer, the call is a `read` with its location.
    const first = await client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'What does notes.txt say?' }],
    });
    expect(first.stopReason).toBe('end_turn');
    const read = updatesOf(client, 'tool_call').find((call) => call.title.startsWith('Read'));
    expect(read?.kind).toBe('read');
    expect(read?.locations).toEqual([{ path: notes }]);
    expect(updatesOf(client, 'tool_call_update').find((u) => u.toolCallId === read?.toolCallId)?.status).toBe(
      'completed',
    );
    expect(client.reads).toContain(notes);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('the buffered text');
    expect(JSON.stringify(server.requests[0]?.body.tools)).toContain('mcp__everything__echo');
    expect(
      updatesOf(client, 'agent_message_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''))
        .join(''),
    ).toContain('It says buffered.');
    expect(updatesOf(client, 'available_commands_update')[0]?.availableCommands.map((c) => c.name)).toContain(
      'compact',
    );
    expect(existsSync(hooked)).toBe(true);

    // A Bash call the editor rejects does not run; the second prompt carries the first.
    client.answers.push('reject_once');
    const second = await client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Create ran.txt' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(client.asked[0]?.options.map((option) => option.kind)).toContain('reject_once');
    expect(client.asked[0]?.toolCall.kind).toBe('execute');
    expect(existsSync(join(root, 'ran.txt'))).toBe(false);
    expect(JSON.stringify(server.requests[2]?.body.messages)).toContain('What does notes.txt say?');
    const bash = updatesOf(client, 'tool_call').find((call) => call.title.startsWith('Bash'));
    expect(updatesOf(client, 'tool_call_update').find((u) => u.toolCallId === bash?.toolCallId)?.status).toBe('failed');

    // An edit the editor allows is written through fs/write_text_file (the disk is the editor's business).
    client.answers.push('allow_once');
    const third = await client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Change buffered to edited' }],
    });
    expect(third.stopReason).toBe('end_turn');
    expect(client.writes).toEqual([{ sessionId, path: notes, content: 'the edited text\n' }]);
    expect(readFileSync(notes, 'utf8')).toBe('the disk text\n');
    const edit = updatesOf(client, 'tool_call').find((call) => call.title.startsWith('Edit'));
    expect(edit?.kind).toBe('edit');
    expect(edit?.content?.[0]).toMatchObject({ type: 'diff', path: notes, oldText: 'buffered', newText: 'edited' });

    // Cancel during a slow reply: the prompt answers `cancelled`.
    const slow = client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Take your time' }],
    });
    const said = () =>
      updatesOf(client, 'agent_message_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''))
        .join('');
    await until(() => said().includes('Edited.think'));
    await client.agent.notify('session/cancel', { sessionId });
    expect((await slow).stopReason).toBe('cancelled');
    release();

    // stdin closes: mca exits 0, and the MCP server it started is gone.
    expect(processesMatching('server-everything', root).length).toBeGreaterThan(0);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(processesMatching('server-everything', root)).toEqual([]);
    expect(child.problems).toEqual([]);

    // A new process loads the earlier session: its history comes back as updates.
    const again = spawnAcp(root, env(home, server.url), ['acp']);
    children.push(again);
    const later = connect(again);
    await initialize(later.agent);
    const listed = await later.agent.request('session/list', { cwd: root });
    expect(listed.sessions.map((session) => session.sessionId)).toContain(sessionId);
    const resumed = await later.agent.request('session/resume', { sessionId, cwd: root });
    expect(resumed.modes?.currentModeId).toBe('default');
    expect(updatesOf(later, 'user_message_chunk')).toEqual([]);
    await later.agent.request('session/load', { sessionId, cwd: root, mcpServers: [] });
    const replayed = updatesOf(later, 'user_message_chunk').map((u) =>
      u.content.type === 'text' ? u.content.text : '',
    );
    expect(replayed).toContain('What does notes.txt say?');
    expect(updatesOf(later, 'tool_call').some((call) => call.kind === 'read')).toBe(true);
    again.child.stdin?.end();
    expect(await again.exited).toBe(0);
    expect(again.problems).toEqual([]);
  }, 60_000);

  it('answers malformed JSON, unknown methods and unknown sessions with JSON-RPC errors and keeps serving', async () => {
    const { root, home } = tempProject('mca-acp-errors-');
    server = await startFakeAnthropic([{ text: 'Still here.' }]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const client = connect(child);
    await initialize(client.agent);
    child.raw('{not json');
    child.raw(JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method: 'no/such_method', params: {} }));
    await expect(
      client.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'hi' }] }),
    ).rejects.toMatchObject({ code: -32002 });
    await until(() => child.sent.some((message) => message.id === 'raw-1'));
    const errors = child.sent.filter((message) => 'error' in message);
    expect(errors.map((message) => (message.error as { code: number }).code)).toEqual(
      expect.arrayContaining([-32700, -32601, -32002]),
    );
    await expect(
      client.agent.request('session/new', { cwd: join(root, 'missing'), mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(client.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      client.agent.request('session/load', { sessionId: 'no-such-session', cwd: root, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002 });
    const { sessionId } = await client.agent.request('session/new', { cwd: root, mcpServers: [] });
    // An editor's selection (embedded resource) and a file link reach the model inside the prompt.
    const answer = await client.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Explain this' },
        { type: 'resource', resource: { uri: `file://${root}/sel.ts`, text: 'const selected = 42;' } },
        { type: 'resource_link', uri: `file://${root}/other.ts`, name: 'other.ts' },
      ],
    });
    expect(answer.stopReason).toBe('end_turn');
    const asked = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(asked).toContain(`<context uri=\\"${root}/sel.ts\\">\\nconst selected = 42;`);
    expect(asked).toContain(`[Attached: ${root}/other.ts]`);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 30_000);
  it("without an API key, session/new fails with ACP's auth-required error naming the variable", async () => {
    const { root, home } = tempProject('mca-acp-nokey-');
    const child = spawnAcp(root, { MCA_HOME: home, HOME: home });
    children.push(child);
    const client = connect(child);
    await initialize(client.agent);
    const failure = client.agent.request('session/new', { cwd: root, mcpServers: [] });
    await expect(failure).rejects.toMatchObject({ code: -32000 });
    await expect(failure).rejects.toThrow(/ANTHROPIC_API_KEY/);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(child.problems).toEqual([]);
  }, 30_000);

  it('untrusted notice, plan mode and its approval, TodoWrite plan, "always allow" saved as the REPL saves it, and stdin EOF ends a running command', async () => {
    const { root, home } = tempProject('mca-acp-always-');
    server = await startFakeAnthropic([
      { text: 'My plan.', calls: [{ name: 'ExitPlanMode', input: { plan: 'Say hi with echo.' } }] },
      {
        text: 'Planning.',
        calls: [{ name: 'TodoWrite', input: { todos: [{ content: 'say hi', status: 'in_progress' }] } }],
      },
      { text: 'Saying hi.', calls: [{ name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'Said it.' },
      { text: 'Waiting.', calls: [{ name: 'Bash', input: { command: 'sleep 31' } }] },
      { text: 'never reached' },
    ]);
    const child = spawnAcp(root, env(home, server.url));
    children.push(child);
    const client = connect(child);
    await initialize(client.agent);
    const { sessionId } = await client.agent.request('session/new', { cwd: root, mcpServers: [] });
    await until(() => updatesOf(client, 'available_commands_update').length > 0);
    // The session's first update follows the session/new response that told the client its id.
    const responseAt = child.sent.findIndex(
      (m) => (m.result as { sessionId?: string } | undefined)?.sessionId === sessionId,
    );
    const firstUpdateAt = child.sent.findIndex((m) => m.method === 'session/update');
    expect(responseAt).toBeGreaterThanOrEqual(0);
    expect(firstUpdateAt).toBeGreaterThan(responseAt);
    await client.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    await expect(client.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toMatchObject({
      code: -32602,
    });
    client.answers.push('plan_accept_edits', 'allow_always');
    const answer = await client.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Say hi' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const said = updatesOf(client, 'agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    expect(said).toContain('is not a trusted project');
    // The approved plan leaves plan mode as the REPL's "Yes, and auto-accept edits" does.
    expect(client.asked[0]?.options.map((option) => option.optionId)).toEqual([
      'plan_accept_edits',
      'plan_default',
      'reject_once',
    ]);
    expect(JSON.stringify(client.asked[0]?.toolCall.content)).toContain('Say hi with echo.');
    expect(updatesOf(client, 'current_mode_update').map((u) => u.currentModeId)).toEqual(['plan', 'acceptEdits']);
    expect(updatesOf(client, 'plan')[0]?.entries).toEqual([
      { content: 'say hi', status: 'in_progress', priority: 'medium' },
    ]);
    expect(updatesOf(client, 'usage_update').length).toBeGreaterThan(0);
    expect(client.asked[1]?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    const bash = updatesOf(client, 'tool_call').find((call) => call.title.startsWith('Bash'));
    const done = updatesOf(client, 'tool_call_update').find((u) => u.toolCallId === bash?.toolCallId);
    expect(done?.status).toBe('completed');
    expect(JSON.stringify(done?.content)).toContain('hi');
    const saved = JSON.parse(readFileSync(join(root, '.claude/settings.local.json'), 'utf8')) as {
      permissions: { allow: string[] };
    };
    expect(saved.permissions.allow).toEqual([expect.stringMatching(/^Bash\(echo/)]);

    // A command still running when the editor closes stdin ends with mca.
    client.answers.push('allow_once');
    void client.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait a while' }] })
      .catch(() => undefined);
    await until(() => processesMatching('sleep 31', root).length > 0);
    child.child.stdin?.end();
    expect(await child.exited).toBe(0);
    expect(processesMatching('sleep 31', root)).toEqual([]);
    expect(child.problems).toEqual([]);
  }, 60_000);
});
