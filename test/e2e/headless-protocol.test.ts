/**
 * `mca --input-format stream-json --output-format stream-json` fed raw NDJSON on stdin (the built binary against
 * the loopback fake API), as an SDK host other than the TypeScript SDK would feed it: control requests are
 * answered by request_id (an unknown subtype with an error, never a crash), a malformed line costs one stderr line
 * and nothing else, user messages run in order, and mca exits 0 on stdin EOF after the last result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-headless-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Line = Record<string, unknown> & {
  type: string;
  subtype?: string;
  response?: { subtype: string; request_id: string; response?: Record<string, unknown>; error?: string };
};

const request = (id: string, body: Record<string, unknown>) =>
  JSON.stringify({ type: 'control_request', request_id: id, request: body });
const user = (text: string) =>
  JSON.stringify({
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
  });

describe('headless stream-json input', () => {
  it('answers control requests, skips a malformed line, runs both messages and exits 0 at EOF', async () => {
    const { root, home } = tempProject('mca-headless-');
    server = await startFakeAnthropic([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const stdin = [
      request('init-1', { subtype: 'initialize', systemPrompt: [''], appendSystemPrompt: 'Be brief.' }),
      '{not json',
      request('odd-1', { subtype: 'rewind_everything' }),
      request('model-1', { subtype: 'set_model', model: 'claude-haiku-4-5' }),
      request('mcp-1', { subtype: 'mcp_status' }),
      request('mode-1', { subtype: 'set_permission_mode', mode: 'acceptEdits' }),
      request('mode-2', { subtype: 'set_permission_mode', mode: 'bypassPermissions' }),
      user('first question'),
      user('second question'),
      '',
    ].join('\n');
    const run = await runMca(['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home },
      stdin,
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const answers = new Map(
      lines
        .filter((line) => line.type === 'control_response')
        .map((line) => [line.response?.request_id, line.response]),
    );
    expect(answers.get('init-1')).toMatchObject({
      subtype: 'success',
      response: {
        // mca's built-in prompts (/review, /security-review) are its only commands in an empty project.
        commands: [expect.objectContaining({ name: 'review' }), expect.objectContaining({ name: 'security-review' })],
        output_style: 'default',
        models: [expect.objectContaining({ value: expect.any(String) })],
      },
    });
    expect(answers.get('odd-1')).toMatchObject({
      subtype: 'error',
      error: expect.stringContaining('rewind_everything'),
    });
    expect(answers.get('model-1')).toMatchObject({ subtype: 'success' });
    expect(answers.get('mcp-1')).toMatchObject({ subtype: 'success', response: { mcpServers: [] } });
    expect(answers.get('mode-1')).toMatchObject({ subtype: 'success', response: { mode: 'acceptEdits' } });
    // bypassPermissions needs --allow-dangerously-skip-permissions.
    expect(answers.get('mode-2')).toMatchObject({ subtype: 'error' });
    expect(run.stderr.match(/not JSON/g)).toHaveLength(1);

    const results = lines.filter((line) => line.type === 'result');
    expect(results.map((line) => line.result)).toEqual(['First answer.', 'Second answer.']);
    const init = lines.find((line) => line.type === 'system' && line.subtype === 'init');
    expect(init).toMatchObject({ model: 'claude-haiku-4-5', permissionMode: 'acceptEdits' });
    // set_model reached the API; the empty systemPrompt kept mca's prompt; the appended text is there.
    expect(server.requests.map((request) => request.body.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5']);
    const system = JSON.stringify(server.requests[0]!.body.system);
    expect(system).toContain('You are mca');
    expect(system).toContain('Be brief.');
    expect(userText(server.requests[1]!.body)).toContain('first question');
  });
});

describe('headless stream-json input from a hostile host', () => {
  it('a line over the size cap is one warning and is dropped; the lines around it still run; no final newline needed', async () => {
    const { root, home } = tempProject('mca-headless-big-');
    server = await startFakeAnthropic([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    // 4 MB without a newline against a 64 KB cap, then a last message without its newline.
    const stdin = [user('before the flood'), 'x'.repeat(4 * 1024 * 1024), user('after the flood')].join('\n');
    const run = await runMca(['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      cwd: root,
      env: {
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: home,
        HOME: home,
        MCA_HOST_LINE_MAX_BYTES: String(64 * 1024),
      },
      stdin,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/ignored a stdin line: the host sent a message over 65536 bytes/);
    expect(run.stderr.split('\n').filter((line) => line.includes('ignored a stdin line'))).toHaveLength(1);
    expect(server.requests.map((entry) => userText(entry.body))).toEqual([
      expect.stringContaining('before the flood'),
      expect.stringContaining('after the flood'),
    ]);
  });
});
