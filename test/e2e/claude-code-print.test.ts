/**
 * `mca -p` with Claude Code's output formats and flags, through the built binary against the loopback fake API:
 * every stream-json line has the shape of its SDK type (test/claude-code/claude-code-golden.test.ts pins those types to
 * the SDK's at compile time; here each printed line is checked for its type's fields), a failed run prints an
 * is_error result and exits non-zero, `--max-turns` ends with error_max_turns, partial messages add stream_event
 * lines, and flags mca does not implement warn or are refused.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-cc-print-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(script: FakeStep[], args: string[], files: Record<string, string> = {}) {
  const { root, home } = tempProject('mca-ccp-', files);
  server = await startFakeAnthropic(script);
  const result = await runMca(args, {
    cwd: root,
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home },
  });
  return { ...result, root };
}

type Line = Record<string, unknown> & { type: string; subtype?: string };

function lines(stdout: string): Line[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

/** The fields each line type must carry (the SDK types' required fields). */
const REQUIRED: Record<string, string[]> = {
  init: ['cwd', 'session_id', 'tools', 'mcp_servers', 'model', 'permissionMode', 'slash_commands', 'apiKeySource'],
  assistant: ['message', 'parent_tool_use_id', 'uuid', 'session_id'],
  user: ['message', 'parent_tool_use_id', 'uuid', 'session_id'],
  stream_event: ['event', 'parent_tool_use_id', 'uuid', 'session_id'],
  result: [
    'subtype',
    'duration_ms',
    'duration_api_ms',
    'is_error',
    'num_turns',
    'stop_reason',
    'total_cost_usd',
    'usage',
    'modelUsage',
    'permission_denials',
    'uuid',
    'session_id',
  ],
};

function expectShape(line: Line): void {
  const kind = line.type === 'system' && line.subtype === 'init' ? 'init' : line.type;
  if (line.type === 'system' && kind !== 'init') {
    // mca-only lines, or Claude Code's own system lines (claude-code-stream-golden.test.ts checks their shapes).
    expect(line.subtype).toMatch(/^(mca_|status$|api_retry$|compact_boundary$|hook_)/);
    return;
  }
  const fields = REQUIRED[kind];
  expect(fields, `unexpected line type ${kind}`).toBeDefined();
  for (const field of fields ?? []) expect(line, `${kind} lacks ${field}`).toHaveProperty(field);
}

const READ_CALL = { id: 'toolu_read_1', name: 'Read', input: { path: 'a.txt' } };

describe('-p in Claude Code formats', () => {
  it('stream-json --verbose: init, the tool_use and its tool_result paired by id, then the result', async () => {
    const out = await run(
      [
        { text: 'Reading.', calls: [READ_CALL], usage: { input_tokens: 1000, output_tokens: 100 } },
        { text: 'It says hi.' },
      ],
      ['-p', 'what does a.txt say?', '--output-format=stream-json', '--verbose', '--model=claude-sonnet-4-5'],
      { 'a.txt': 'hi\n' },
    );
    expect(out.code, out.stderr).toBe(0);
    const all = lines(out.stdout);
    for (const line of all) expectShape(line);
    expect(all[0]).toMatchObject({ type: 'system', subtype: 'init', cwd: out.root, model: 'claude-sonnet-4-5' });
    const toolUse = all.find((line) => line.type === 'assistant' && JSON.stringify(line).includes('"tool_use"'));
    expect(toolUse?.message).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_read_1', name: 'Read', input: { file_path: `${out.root}/a.txt` } }],
    });
    const toolResult = all.find((line) => line.type === 'user');
    expect(toolResult?.message).toMatchObject({
      content: [{ type: 'tool_result', tool_use_id: 'toolu_read_1', is_error: false }],
    });
    expect(JSON.stringify(toolResult)).toContain('hi');
    const result = all.at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'It says hi.', num_turns: 2 });
    // Priced from the shared table: 1,000 + 100 input and 100 + ~3 output tokens at Sonnet's $3/$15 per million.
    expect(result?.total_cost_usd).toBeGreaterThan(0.004);
    expect(result?.modelUsage).toMatchObject({ 'claude-sonnet-4-5': { inputTokens: 1100 } });
  });

  it('stream-json under -p without --verbose is refused with Claude Code message', async () => {
    const out = await run([], ['-p', 'hi', '--output-format', 'stream-json']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('When using --print, --output-format=stream-json requires --verbose');
  });

  it('json: an API failure is an is_error result and a non-zero exit', async () => {
    const out = await run([{ status: 400, message: 'bad request' }], ['-p', 'hi', '--output-format', 'json']);
    expect(out.code).toBe(1);
    const result = JSON.parse(out.stdout) as Line;
    expectShape(result);
    expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });
    expect((result.errors as string[])[0]).toContain('bad request');
  });

  it('json: stdout is the one result object while a warning (an MCP server that failed) reaches stderr', async () => {
    const broken = JSON.stringify({ mcpServers: { broken: { command: 'mca-no-such-server-command' } } });
    const out = await run([{ text: 'fine' }], ['-p', 'hi', '--output-format', 'json', '--mcp-config', broken]);
    expect(out.code).toBe(0);
    expect((JSON.parse(out.stdout) as Line).result).toBe('fine');
    expect(out.stderr).toMatch(/MCP server "broken" failed/);
  });

  it('--max-turns ends with error_max_turns', async () => {
    const out = await run(
      [
        { text: 'Reading.', calls: [READ_CALL] },
        { text: 'Again.', calls: [{ ...READ_CALL, id: 'toolu_read_2' }] },
      ],
      ['-p', 'read', '--output-format', 'json', '--max-turns', '1'],
      { 'a.txt': 'hi\n' },
    );
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 1 });
  });

  it('--include-partial-messages adds the streaming events of the reply', async () => {
    const out = await run(
      [{ text: 'Hello there.', chunks: 3 }],
      ['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'],
    );
    expect(out.code, out.stderr).toBe(0);
    const all = lines(out.stdout);
    for (const line of all) expectShape(line);
    const events = all.filter((line) => line.type === 'stream_event').map((line) => (line.event as Line).type);
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const text = all
      .filter((line) => line.type === 'stream_event' && (line.event as Line).type === 'content_block_delta')
      .map((line) => (line.event as { delta: { text: string } }).delta.text)
      .join('');
    expect(text).toBe('Hello there.');
  });

  it('--system-prompt replaces the identity but keeps the tool and safety rules; --append-system-prompt comes last', async () => {
    const out = await run(
      [{ text: 'ok' }],
      ['-p', 'hi', '--system-prompt', 'You are a release bot.', '--append-system-prompt=Sign as RB.'],
    );
    expect(out.code, out.stderr).toBe(0);
    const blocks = server!.requests[0]!.body.system;
    const system = Array.isArray(blocks) ? blocks.map((block) => block.text).join('\n') : String(blocks);
    expect(system.startsWith('You are a release bot.')).toBe(true);
    expect(system).not.toContain('You are mca');
    expect(system).toContain('Read before you edit');
    expect(system).toContain('# Environment');
    expect(system.trimEnd().endsWith('Sign as RB.')).toBe(true);
  });

  it('flags mca does not implement: harmless ones warn once, ones that could widen permissions are refused', async () => {
    const warned = await run([{ text: 'ok' }], ['-p', 'hi', '--betas', 'x', '--max-thinking-tokens=100']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain('--betas is not supported by mca and is ignored');
    expect(warned.stderr).toContain('--max-thinking-tokens is not supported by mca and is ignored');
    const refused = await run([], ['-p', 'hi', '--settings', '{"permissions":{"allow":["Bash"]}}']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--settings is not supported by mca');
    expect(server!.requests).toHaveLength(0);
  });

  it('--setting-sources project leaves the user settings rules out', async () => {
    const touch = { id: 'toolu_touch', name: 'Bash', input: { command: 'touch made.txt' } };
    const script = [{ text: 'Making it.', calls: [touch] }, { text: 'Done.' }];
    const userRule = JSON.stringify({ permissions: { allow: ['Bash(touch:*)'] } });
    const { root, home } = tempProject('mca-ccp-sources-');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), userRule);
    const env = (url: string) => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url, MCA_HOME: home, HOME: home });

    server = await startFakeAnthropic(script);
    const limited = await runMca(['-p', 'make', '--output-format', 'json', '--setting-sources', 'project'], {
      cwd: root,
      env: env(server.url),
    });
    expect(JSON.parse(limited.stdout)).toMatchObject({
      permission_denials: [expect.objectContaining({ tool_name: 'Bash' })],
    });
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    await server.close();

    server = await startFakeAnthropic(script);
    const all = await runMca(['-p', 'make', '--output-format', 'json'], { cwd: root, env: env(server.url) });
    expect(JSON.parse(all.stdout)).toMatchObject({ permission_denials: [] });
    expect(existsSync(join(root, 'made.txt'))).toBe(true);
  });

  it('--session-id names the new session; an id in use is refused', async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const { root, home } = tempProject('mca-ccp-id-');
    server = await startFakeAnthropic([{ text: 'ok' }]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home };
    const first = await runMca(['-p', 'hi', '--output-format', 'json', `--session-id=${id}`], { cwd: root, env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ session_id: id });
    const again = await runMca(['-p', 'hi', '--session-id', id], { cwd: root, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`Session ID ${id} is already in use`);
    expect(server.requests).toHaveLength(1);
  });

  it('--fork-session: -c continues the conversation under a new id (or --session-id) and leaves the old file as it was', async () => {
    const { root, home } = tempProject('mca-ccp-fork-');
    server = await startFakeAnthropic([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home, HOME: home };
    const json = ['--output-format', 'json'];
    const first = JSON.parse((await runMca(['-p', 'alpha question', ...json], { cwd: root, env })).stdout) as Line;
    const original = join(home, 'projects');
    const snapshot = () =>
      readdirSync(original, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith(`${String(first.session_id)}.jsonl`))
        .map((f) => readFileSync(join(original, f), 'utf8'));
    const before = snapshot();
    expect(before).toHaveLength(1);

    const forked = await runMca(['-c', '-p', 'beta question', '--fork-session', ...json], { cwd: root, env });
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stderr).not.toContain('fork');
    const forkedId = (JSON.parse(forked.stdout) as Line).session_id;
    expect(forkedId).not.toBe(first.session_id);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('alpha question');
    expect(snapshot()).toEqual(before);

    const named = '6ba7b810-9dad-41d1-80b4-00c04fd430c8';
    const again = await runMca(
      ['-r', String(first.session_id), '-p', 'gamma question', '--fork-session', `--session-id=${named}`, ...json],
      { cwd: root, env },
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ session_id: named });
    const gamma = JSON.stringify(server.requests[2]?.body.messages);
    expect(gamma).toContain('alpha question');
    expect(gamma).not.toContain('beta question');
    expect(snapshot()).toEqual(before);
  });
});
