/**
 * Native tool use end to end: the built binary against the loopback fakes speaking `tool_use` with
 * `input_json_delta` (Anthropic) and streamed `tool_calls` deltas (OpenAI). What the next request carries is
 * asserted: calls and results paired by id, in order, full observations, is_error, the cache breakpoint.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-native-0123456789';
let server: FakeAnthropic | undefined;
let openai: FakeOpenAI | undefined;

afterEach(async () => {
  await server?.close();
  await openai?.close();
  server = undefined;
  openai = undefined;
});

async function serve(script: FakeStep[]) {
  server = await startFakeAnthropic(script);
  return server;
}

function env(home: string, extra: Record<string, string> = {}) {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server?.url ?? '', MCA_HOME: home, ...extra };
}

type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

function blocksOf(message: { content: unknown } | undefined): Block[] {
  return Array.isArray(message?.content) ? (message.content as Block[]) : [];
}

const FILES = { 'a.js': 'export const a = 1;\n', 'b.js': 'export const b = 2;\n' };
const PARALLEL = {
  text: 'Reading both, then fixing a.',
  calls: [
    { id: 'toolu_read_a', name: 'Read', input: { path: 'a.js' } },
    { id: 'toolu_read_b', name: 'Read', input: { path: 'b.js' } },
    { id: 'toolu_edit_a', name: 'Edit', input: { path: 'a.js', old_string: 'a = 1', new_string: 'a = 10' } },
  ],
};

describe('native tool use (default) against the fake Anthropic API', () => {
  it('runs two reads and an edit of one reply and pairs the three results by id in the next request', async () => {
    const { root, home } = tempProject('mca-native-', FILES);
    const fake = await serve([PARALLEL, { text: 'Done: a is 10 now.' }]);
    const run = await runMca(['-p', 'fix a', '--permission-mode', 'acceptEdits'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Done: a is 10 now.');
    expect(readFileSync(join(root, 'a.js'), 'utf8')).toBe('export const a = 10;\n');

    const first = fake.requests[0]!.body;
    expect(first.stop_sequences).toBeUndefined();
    const tools = first.tools as Array<{ name: string; input_schema: { properties: Record<string, unknown> } }>;
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['LS', 'Glob', 'Grep', 'Read', 'Write', 'Edit', 'MultiEdit', 'Bash', 'TodoWrite']),
    );
    expect(Object.keys(tools.find((tool) => tool.name === 'Read')!.input_schema.properties)).toEqual([
      'path',
      'start_line',
      'limit',
    ]);

    const second = fake.requests[1]!.body;
    const [, assistant, results] = second.messages!;
    expect(assistant?.role).toBe('assistant');
    const uses = blocksOf(assistant).filter((block) => block.type === 'tool_use');
    expect(uses.map((block) => block.id)).toEqual(['toolu_read_a', 'toolu_read_b', 'toolu_edit_a']);
    expect(results?.role).toBe('user');
    const paired = blocksOf(results).filter((block) => block.type === 'tool_result');
    expect(paired.map((block) => block.tool_use_id)).toEqual(['toolu_read_a', 'toolu_read_b', 'toolu_edit_a']);
    expect(String(paired[0]!.content)).toContain('1\texport const a = 1;');
    expect(String(paired[1]!.content)).toContain('1\texport const b = 2;');
    expect(paired.some((block) => block.is_error)).toBe(false);
    // The newest tool_result carries the breakpoint that lets the next step reuse the cached prefix.
    expect((paired[2] as { cache_control?: unknown }).cache_control).toEqual({ type: 'ephemeral' });
  });

  it('marks a failing call is_error, and the session continues in the text protocol with -c (and back)', async () => {
    const { root, home } = tempProject('mca-native-', FILES);
    const fake = await serve([
      { text: '', calls: [{ id: 'toolu_missing', name: 'Read', input: { path: 'nope.js' } }] },
      { text: 'There is no nope.js.' },
      { text: 'Thought: done\nAction: Finish[text answer]' },
      { text: 'native again' },
    ]);
    const native = await runMca(['-p', 'read nope'], { cwd: root, env: env(home) });
    expect(native.stdout).toContain('There is no nope.js.');
    const failed = blocksOf(fake.requests[1]!.body.messages![2]).find((block) => block.type === 'tool_result');
    expect(failed).toMatchObject({ tool_use_id: 'toolu_missing', is_error: true });
    expect(String(failed?.content)).toContain('NOT_FOUND');

    const text = await runMca(['-c', '-p', 'and now?', '--tool-protocol', 'text'], { cwd: root, env: env(home) });
    expect(text.stdout).toContain('text answer');
    const textBody = fake.requests[2]!.body;
    expect(textBody.tools).toBeUndefined();
    expect(textBody.stop_sequences).toEqual(['\nObservation:']);
    // The native round is in L3 as the E1 transcript.
    expect(userText(textBody)).toMatch(/\[assistant\] Action: Read\[\{"path":"nope\.js"\}\]/);
    expect(userText(textBody)).toContain('NOT_FOUND');

    const back = await runMca(['-c', '-p', 'once more'], { cwd: root, env: env(home) });
    expect(back.stdout).toContain('native again');
    const nativeBody = fake.requests[3]!.body;
    expect(Array.isArray(nativeBody.tools)).toBe(true);
    expect(userText(nativeBody)).toContain('text answer');
  });

  it('MCA_TOOL_PROTOCOL=text sends the E1 protocol; a server refusing tools gets one line naming --tool-protocol text', async () => {
    const { root, home } = tempProject('mca-native-', FILES);
    const fake = await serve([
      { text: 'Thought: done\nAction: Finish[ok]' },
      { status: 400, errorType: 'invalid_request_error', message: 'tools: Extra inputs are not permitted' },
    ]);
    const text = await runMca(['-p', 'hi'], { cwd: root, env: env(home, { MCA_TOOL_PROTOCOL: 'text' }) });
    expect(text.stdout).toContain('ok');
    expect(fake.requests[0]!.body.tools).toBeUndefined();
    expect(String(fake.requests[0]!.body.system?.[0] && JSON.stringify(fake.requests[0]!.body.system))).toContain(
      'Action: Finish[',
    );

    const refused = await runMca(['-p', 'hi'], { cwd: root, env: env(home) });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('--tool-protocol text');
  });
});

describe('extended thinking (thinking: <budget>) on Anthropic', () => {
  it('asks for thinking, streams it as events and passes the signed block back within the turn', async () => {
    const { root, home } = tempProject('mca-native-', FILES);
    // Thinking is the user's choice (their bill): it comes from the user's config, never from the project.
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{"thinking": 2048}');
    const fake = await serve([
      {
        text: '',
        thinking: { text: 'I should read a.js first.', signature: 'sig-abc' },
        calls: [{ id: 'toolu_think', name: 'Read', input: { path: 'a.js' } }],
      },
      { text: 'a is 1.' },
    ]);
    const run = await runMca(['-p', 'what is a?', '--output-format', 'mca-stream-json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string });
    const thought = events.filter((event) => event.type === 'thinking_delta').map((event) => event.text);
    expect(thought.join('')).toBe('I should read a.js first.');
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const assistant = fake.requests[1]!.body.messages![1]!;
    expect(blocksOf(assistant).map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(blocksOf(assistant)[0]).toMatchObject({ thinking: 'I should read a.js first.', signature: 'sig-abc' });
  });
});

describe('native tool use against an OpenAI-compatible API', () => {
  it('streams parallel tool_calls deltas, pairs the tool messages by id, and sends max_completion_tokens without stop to gpt-5', async () => {
    const { root, home } = tempProject('mca-native-', FILES);
    openai = await startFakeOpenAI([PARALLEL, { text: 'Fixed.' }]);
    const run = await runMca(['-p', 'fix a', '--permission-mode', 'acceptEdits', '--model', 'gpt-5'], {
      cwd: root,
      env: { MCA_PROVIDER: 'openai', OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test', MCA_HOME: home },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Fixed.');
    expect(readFileSync(join(root, 'a.js'), 'utf8')).toBe('export const a = 10;\n');
    const first = openai.requests[0]!.body;
    expect(first.max_tokens).toBeUndefined();
    expect(first.max_completion_tokens).toBeGreaterThan(0);
    expect(first.stop).toBeUndefined();
    const messages = openai.requests[1]!.body.messages!;
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls?.map((call) => call.id)).toEqual(['toolu_read_a', 'toolu_read_b', 'toolu_edit_a']);
    expect(JSON.parse(assistant!.tool_calls![2]!.function.arguments)).toEqual(PARALLEL.calls[2]!.input);
    const tools = messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.tool_call_id)).toEqual(['toolu_read_a', 'toolu_read_b', 'toolu_edit_a']);
    expect(tools[1]!.content).toContain('export const b = 2;');
  });
});
