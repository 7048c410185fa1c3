/**
 * Issue 13, tool memory through the built binary against the loopback fake Anthropic API: a full tool result is
 * stored by reference in the session directory; after `-c` the history shows it in full again from there (engine
 * v4: no forgetting without pressure), and the model's `Recall{ref}` brings back any range of it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeAnthropic, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakePlainStep, FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, finish, isSummaryRequest } from './support/agent-script.js';

const KEY = 'sk-ant-test-tool-memory-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('a reference survives -c and Recall returns the full earlier output', async () => {
  const { root, home } = tempProject('mca-e2e-recall-', {
    'print.js': 'for (let i = 1; i <= 300; i += 1) console.log(`line ${i} value ${i * 7}`);\n',
  });
  const agentRequests: FakeRequestBody[] = [];
  /** The stored result's reference, read from the session's tool memory after the first run. */
  const recall: { ref?: string | undefined } = {};
  const replies: Array<(body: FakeRequestBody) => FakePlainStep> = [
    () => act('run it', 'Bash', { command: 'node print.js' }),
    () => finish('done', 'printed 300 lines'),
    () => act('the detail is stored', 'Recall', { ref: recall.ref ?? 'r000000000000', start_line: 250, limit: 5 }),
    () => finish('found it', 'line 250 says value 1750'),
  ];
  const step = (body: FakeRequestBody): FakePlainStep => {
    if (isSummaryRequest(body)) return { status: 500, message: 'no summary expected' };
    agentRequests.push(body);
    return replies.shift()?.(body) ?? { status: 500, message: 'no reply left' };
  };
  server = await startFakeAnthropic([step, step, step, step]);
  const env = {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: server.url,
    MCA_HOME: home,
    MCA_PERMISSION_MODE: 'bypassPermissions',
  };
  const first = await runMca(['-p', 'run print.js'], { cwd: root, env });
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  // The store lives beside the session file, one private file per reference.
  const projects = join(home, 'projects');
  const dir = join(projects, readdirSync(projects)[0] ?? '');
  const toolsDir = readdirSync(dir).find((name) => name.endsWith('.tools'));
  expect(toolsDir).toBeDefined();
  recall.ref = readdirSync(join(dir, toolsDir ?? ''))[0]?.replace(/\.txt$/, '');
  const second = await runMca(['-c', '-p', 'what did line 250 say?'], { cwd: root, env });
  expect(second.stderr).toBe('');
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('line 250 says value 1750');

  // The continued session's history shows the earlier result in full, read back from the session's tool memory.
  const history = userText(agentRequests[2] ?? {});
  expect(recall.ref).toMatch(/^r[0-9a-f]{12}$/);
  expect(history).toContain('[user] run print.js');
  expect(history).toContain('line 250 value 1750');
  // Recall's observation reaches the model with the lines asked for, numbered as in the stored output.
  const recalled = userText(agentRequests[3] ?? {});
  // (After `Observation: ` in the text protocol, as the tool_result's text in the native one.)
  expect(recalled).toMatch(/(Observation: |\n)250\tline 250 value 1750\n251\tline 251 value 1757/);
  expect(recalled).not.toMatch(/249\tline 249 value/);

  const stored = join(dir, toolsDir ?? '', `${recall.ref ?? ''}.txt`);
  expect(statSync(stored).mode & 0o777).toBe(0o600);
});

/** The content blocks of the request's one user message. */
function userBlocks(body: FakeRequestBody): Array<{ type: string; text: string; cache_control?: { type: string } }> {
  const content = body.messages?.[0]?.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);
}

it('in one turn the summary is asked on the cached prefix, and when it fails the facts ledger is archived', async () => {
  const { root, home } = tempProject('mca-e2e-ledger-', { 'notes.txt': 'alpha\nbeta\n' });
  const agentRequests: FakeRequestBody[] = [];
  const summaryRequests: FakeRequestBody[] = [];
  const replies: FakePlainStep[] = [
    act('look', 'Read', { path: 'notes.txt' }),
    finish('done', 'read notes'),
    act('check', 'Bash', { command: 'node -e "process.exit(3)"' }),
    finish('done', 'it exits 3'),
    // A heavy usage in the middle of turn 3: the next step passes the threshold and compacts.
    { ...act('again', 'LS', { path: '.' }), usage: { input_tokens: 180_000 } },
    finish('done', 'third answer'),
  ];
  const step = (body: FakeRequestBody): FakePlainStep => {
    if (isSummaryRequest(body)) {
      summaryRequests.push(body);
      return { status: 400, message: 'summary refused by the fake server' };
    }
    agentRequests.push(body);
    return replies.shift() ?? { status: 500, message: 'no reply left' };
  };
  server = await startFakeAnthropic(Array.from({ length: 8 }, () => step));
  const env = {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: server.url,
    MCA_HOME: home,
    MCA_PERMISSION_MODE: 'bypassPermissions',
    MCA_MIN_RETAIN_ROUNDS: '1',
    MCA_MAX_RETRIES: '0',
  };
  expect((await runMca(['-p', 'read the notes'], { cwd: root, env })).code).toBe(0);
  expect((await runMca(['-c', '-p', 'run the check'], { cwd: root, env })).code).toBe(0);
  const third = await runMca(['-c', '-p', 'and now?'], { cwd: root, env });
  expect(third.code).toBe(0);
  expect(third.stdout).toContain('third answer');
  expect(summaryRequests).toHaveLength(1);
  expect(agentRequests).toHaveLength(6);

  // The summary request starts with the previous request's system blocks and history blocks, byte for byte.
  const previous = agentRequests[4] ?? {};
  const summary = summaryRequests[0] ?? {};
  expect(summary.system).toEqual(previous.system);
  // In native tool use the tools come first in the cache key: the summary request carries the same ones, and is
  // told to answer in text.
  expect(Array.isArray(previous.tools) && previous.tools.length > 0).toBe(true);
  expect(summary.tools).toEqual(previous.tools);
  expect(userBlocks(summary).at(-1)?.text).toContain('Do not call any tool for this request');
  const historyCount = userBlocks(previous).findIndex((block) => block.text.startsWith('# Request'));
  expect(historyCount).toBeGreaterThan(0);
  expect(userBlocks(summary).slice(0, historyCount)).toEqual(userBlocks(previous).slice(0, historyCount));
  expect(userBlocks(summary)).toHaveLength(historyCount + 1);

  // The summary failed: the next request carries the ledger of round 1 instead of the round itself.
  const after = userText(agentRequests[5] ?? {});
  expect(after).not.toContain('[user] read the notes');
  expect(after).toContain('## 📌 Archived rounds (no summary available) (rounds 1–1)');
  expect(after).toContain('- Requests: R1 "read the notes"');
  expect(after).toContain('- Files read: notes.txt (R1)');
  expect(after).toMatch(/- Stored tool results \(Recall\{ref\}\): r[0-9a-f]{12} \(Read notes\.txt, R1\)/);
  expect(after).toContain('[user] run the check'); // the newest closed round stays verbatim
});
