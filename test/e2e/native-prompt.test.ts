/**
 * The model's eye in native tool use (issue 30): nothing in a native request invites the text protocol. The
 * system prompt, the tool descriptions, the closed rounds in L3 and the current turn carry no `Action:` form, and a
 * reply that writes a tool call as text is a protocol slip: it gets one nudge, is never printed as the answer, and
 * the tool then runs as a native call.
 */
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { fakeAnthropicPerTest } from '../helpers/fake-anthropic-per-test.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-native-prompt-0123456789';
const anthropic = fakeAnthropicPerTest();

const serve = anthropic.serve;

function env(home: string) {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url(), MCA_HOME: home };
}

/** Everything the model reads in a request: system, tools and messages, as one JSON text. */
function everything(body: unknown): string {
  return JSON.stringify(body);
}

type Block = { type: string; tool_use_id?: string; name?: string; content?: unknown; is_error?: boolean };

function blocksOf(message: { content: unknown } | undefined): Block[] {
  return Array.isArray(message?.content) ? (message.content as Block[]) : [];
}

const FILES = { 'a.js': 'export const a = 1;\n' };

describe('native requests as the model reads them', () => {
  it('carry no Action: text form, in L1, the tools, the closed rounds of L3 or the turn', async () => {
    const { root, home } = tempProject('mca-native-prompt-', FILES);
    const fake = await serve([
      { text: 'Reading a.', calls: [{ name: 'Read', input: { path: 'a.js' } }] },
      { text: 'a is 1.' },
      { text: 'Still 1.', calls: [{ name: 'Grep', input: { pattern: 'const a' } }] },
      { text: 'Yes, still 1.' },
    ]);
    await runMca(['-p', 'what is a?'], { cwd: root, env: env(home) });
    const next = await runMca(['-c', '-p', 'and now?'], { cwd: root, env: env(home) });
    expect(next.stdout).toContain('Yes, still 1.');
    expect(fake.requests).toHaveLength(4);
    for (const request of fake.requests) {
      expect(everything(request.body)).not.toMatch(/Action:|Thought:|Observation:/);
    }
    // The closed round is in L3 as a record of the call, with its input and (no pressure: engine v4) full result.
    const history = userText(fake.requests[2]!.body);
    expect(history).toContain('[assistant] Reading a.');
    expect(history).toMatch(/\[tool Read \{"path":"a\.js"\}\] 1\texport const a = 1;/);
  });

  it('answer a tool call written as text with one nudge, never print it, and run the tool natively next', async () => {
    const { root, home } = tempProject('mca-native-prompt-', FILES);
    const fake = await serve([
      { text: 'Thought: I will read a.js first.\nAction: Read[{"path": "a.js"}]', calls: [] },
      { text: 'Reading a.js.', calls: [{ name: 'Read', input: { path: 'a.js' } }] },
      { text: 'a is 1.' },
    ]);
    const run = await runMca(['-p', 'what is a?'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('a is 1.');
    expect(fake.requests).toHaveLength(3);
    const nudged = fake.requests[1]!.body.messages!;
    const nudge = JSON.stringify(nudged.at(-1));
    expect(nudge).toContain('Nothing ran: your reply wrote a call to Read as text');
    expect(nudge).toContain('tool-calling interface');
    // The slip's text form is not echoed back: the model sees its words and the nudge, no `Action:` line.
    for (const request of fake.requests) expect(everything(request.body)).not.toContain('Action:');
    const ran = blocksOf(fake.requests[2]!.body.messages!.at(-1)).find((block) => block.type === 'tool_result');
    expect(ran).toBeDefined();
    expect(ran?.is_error ?? false).toBe(false);
    expect(String(ran?.content)).toContain('1\texport const a = 1;');
  });

  it('end the turn on a second slip instead of showing it as the answer', async () => {
    const { root, home } = tempProject('mca-native-prompt-', FILES);
    const slip = { text: 'Action: Read[{"path": "a.js"}]', calls: [] };
    const fake = await serve([slip, slip]);
    const run = await runMca(['-p', 'what is a?'], { cwd: root, env: env(home) });
    expect(fake.requests).toHaveLength(2);
    expect(run.stdout).not.toContain('Action:');
    expect(run.stderr).toContain('wrote tool calls as text');
    expect(run.code).not.toBe(0);
  });
});
