/**
 * Call ids end to end (issue 22), through the built binary against the loopback fake Anthropic API: every tool
 * call keeps one id from the moment it is parsed, in the `tool_start`/`tool_end` events (`-p --output-format
 * stream-json`) and in the session file, whether the API gave it (native tool use) or mca generated it (text
 * protocol). A session file written before ids existed still resumes.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { fakeAnthropicPerTest } from '../helpers/fake-anthropic-per-test.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';

const KEY = 'sk-ant-test-call-ids-0123456789';
const anthropic = fakeAnthropicPerTest();

const serve = anthropic.serve;

function env(home: string, protocol: 'native' | 'text') {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url(), MCA_HOME: home, MCA_TOOL_PROTOCOL: protocol };
}

interface ToolEvent {
  type: 'tool_start' | 'tool_end';
  id: string;
  tool: string;
  input: { path?: string };
  result?: { text: string };
}

function toolEvents(stdout: string): ToolEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string })
    .filter((event): event is ToolEvent => event.type === 'tool_start' || event.type === 'tool_end');
}

interface StoredMessage {
  role: string;
  content: string;
  metadata: { callId?: string; toolName?: string };
}

function sessionFile(home: string): string {
  const projects = join(home, 'projects');
  const [slug] = readdirSync(projects);
  const dir = join(projects, slug ?? '');
  const [file] = readdirSync(dir).filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name));
  return join(dir, file ?? '');
}

function storedMessages(file: string): StoredMessage[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { message?: StoredMessage } & StoredMessage)
    .map((record) => record.message ?? record)
    .filter((message) => typeof message.role === 'string' && message.metadata !== undefined);
}

const FILES = { 'a.js': 'export const a = 1;\n', 'b.js': 'export const b = 2;\n' };

describe('tool call ids', () => {
  it('native: two concurrent Reads of one reply are two start/end pairs, each id matched to its own result', async () => {
    const { root, home } = tempProject('mca-ids-', FILES);
    await serve([
      {
        text: 'Reading both.',
        calls: [
          { id: 'toolu_read_a', name: 'Read', input: { path: 'a.js' } },
          { id: 'toolu_read_b', name: 'Read', input: { path: 'b.js' } },
        ],
      },
      { text: 'Both read.' },
    ]);
    const run = await runMca(['-p', 'read both', '--output-format', 'mca-stream-json'], {
      cwd: root,
      env: env(home, 'native'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = toolEvents(run.stdout);
    const starts = events.filter((event) => event.type === 'tool_start');
    const ends = events.filter((event) => event.type === 'tool_end');
    expect(starts.map((event) => [event.id, event.input.path])).toEqual([
      ['toolu_read_a', 'a.js'],
      ['toolu_read_b', 'b.js'],
    ]);
    expect(ends.map((event) => event.id).sort()).toEqual(['toolu_read_a', 'toolu_read_b']);
    for (const end of ends) {
      const path = end.id === 'toolu_read_a' ? 'a.js' : 'b.js';
      expect(end.input.path).toBe(path);
      expect(end.result?.text).toContain(FILES[path].trim());
    }

    const tools = storedMessages(sessionFile(home)).filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.metadata.callId)).toEqual(['toolu_read_a', 'toolu_read_b']);
    expect(tools[0]?.content).toContain('export const a = 1;');
    expect(tools[1]?.content).toContain('export const b = 2;');
  });

  it('text protocol: the parsed action gets a generated toolu_ id, in its events and in the session file', async () => {
    const { root, home } = tempProject('mca-ids-text-', FILES);
    await serve([act('look at a', 'Read', { path: 'a.js' }), finish('done', 'a is 1.')]);
    const run = await runMca(['-p', 'read a', '--output-format', 'mca-stream-json'], {
      cwd: root,
      env: env(home, 'text'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = toolEvents(run.stdout);
    expect(events.map((event) => event.type)).toEqual(['tool_start', 'tool_end']);
    const id = events[0]?.id ?? '';
    expect(id).toMatch(/^toolu_[0-9A-Za-z]{24}$/);
    expect(events[1]?.id).toBe(id);

    const messages = storedMessages(sessionFile(home));
    const step = messages.find((message) => message.role === 'assistant' && message.content.includes('Action: Read'));
    const result = messages.find((message) => message.role === 'tool');
    expect(step?.metadata.callId).toBe(id);
    expect(result?.metadata.callId).toBe(id);
  });

  it('a session file written before call ids existed still resumes with -c', async () => {
    const { root, home } = tempProject('mca-ids-old-', FILES);
    const fake = await serve([
      act('look at a', 'Read', { path: 'a.js' }),
      finish('done', 'a is 1.'),
      finish('still', 'Resumed fine.'),
    ]);
    const first = await runMca(['-p', 'read a'], { cwd: root, env: env(home, 'text') });
    expect(first.code).toBe(0);
    const file = sessionFile(home);
    expect(readFileSync(file, 'utf8')).toContain('"callId":"toolu_');
    const stripped = readFileSync(file, 'utf8').replace(/,"callId":"toolu_[0-9A-Za-z]{24}"/g, '');
    expect(stripped).not.toContain('callId');
    writeFileSync(file, stripped);

    const resumed = await runMca(['-p', 'and again', '-c'], { cwd: root, env: env(home, 'text') });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Resumed fine.');
    expect(userText(fake.requests[2]!.body)).toContain('export const a = 1;');
  });
});
