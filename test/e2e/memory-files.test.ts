/**
 * Memory files as L2 through the built binary: what the model's requests carry (system blocks, in order, once),
 * also after a compaction, with an import cycle, a symlink out and a subdirectory's file added on first touch.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM } from '../../src/context/summary-compressor.js';
import { startFakeAnthropic, systemText, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeRequestBody, FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, finish } from './support/agent-script.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-memory-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isSummary = (body: FakeRequestBody) => Array.isArray(body.system) && body.system[0]?.text === SUMMARY_SYSTEM;

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function setup() {
  const project = tempProject('mca-memory-e2e-', {
    'CODE_LAW.md': 'LAW-MARK: tabs never',
    'CLAUDE.md': 'CLAUDE-MARK: run npm test. Style: @docs/style.md',
    'AGENTS.md': 'AGENTS-MARK (shadowed)',
    'docs/style.md': 'STYLE-MARK, see also @../CLAUDE.md',
    'src/api/CLAUDE.md': 'API-MARK: validate input',
    'src/api/handler.ts': 'export const handler = 1;\n',
  });
  mkdirSync(join(project.root, '.git'));
  const userHome = join(dirname(project.root), 'userhome');
  put(join(userHome, '.claude', 'CLAUDE.md'), 'USER-MARK: answer briefly');
  put(join(userHome, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MARK');
  symlinkSync(join(userHome, '.ssh', 'id_rsa'), join(project.root, 'CLAUDE.local.md'));
  return { ...project, userHome };
}

const ORDER = ['LAW-MARK', 'USER-MARK', 'CLAUDE-MARK', 'STYLE-MARK'];

function expectMemoryOnce(body: FakeRequestBody, marks: string[]) {
  const system = systemText(body);
  let at = -1;
  for (const mark of marks) {
    expect(system.split(mark), mark).toHaveLength(2);
    expect(system.indexOf(mark), mark).toBeGreaterThan(at);
    at = system.indexOf(mark);
    expect(userText(body), `${mark} never in history`).not.toContain(mark);
  }
  expect(system).not.toContain('AGENTS-MARK');
  expect(system).not.toContain('PRIVATE-KEY-MARK');
}

describe('memory files in the request', () => {
  it("restores a touched subdirectory's memory file on -c: the resumed session's first request carries it", async () => {
    const project = setup();
    server = await startFakeAnthropic([
      act('go', 'Read', { path: 'src/api/handler.ts' }),
      finish('done', 'read it'),
      finish('done', 'resumed'),
    ]);
    const env = {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
    };
    expect((await runMca(['-p', 'read the handler'], { cwd: project.root, env })).code).toBe(0);
    const resumed = await runMca(['-c', '-p', 'and now?'], { cwd: project.root, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const third = server.requests[2]?.body;
    expect(userText(third!)).toContain('and now?');
    expectMemoryOnce(third!, [...ORDER, 'API-MARK']);
    expect(systemText(third!)).toContain('## src/api/CLAUDE.md');
  }, 90_000);

  it('carries each file once, in order, labelled, a subdirectory file after a Read under it, and still after compaction', async () => {
    const project = setup();
    const heavy = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 40 };
    const summary = '## 📌 Archived Session Summary\n*(Contains context from x to y)*\n\nArchived: topic-0.';
    let turns = 0;
    const reply: FakeStep = (body) => {
      if (isSummary(body)) return { text: summary };
      turns += 1;
      return { ...finish('done', `answer ${turns}`), usage: heavy };
    };
    server = await startFakeAnthropic([
      act('go', 'Read', { path: 'src/api/handler.ts' }),
      ...Array.from({ length: 12 }, () => reply),
    ]);
    const env = {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: project.home,
      HOME: project.userHome,
      MCA_MIN_RETAIN_ROUNDS: '2',
    };
    const first = await runMca(['-p', 'topic-0'], { cwd: project.root, env });
    expect(first.code, first.stderr).toBe(0);
    const warnings = first.stderr.trim().split('\n');
    expect(warnings.filter((line) => line.includes('CLAUDE.local.md'))).toHaveLength(1);
    expect(warnings.find((line) => line.includes('CLAUDE.local.md'))).toMatch(
      /^mca: skipped CLAUDE\.local\.md \(a symlink\)/,
    );

    const [before, after] = server.requests.map((request) => request.body);
    expectMemoryOnce(before!, ORDER);
    expect(systemText(before!)).toContain('# Project Rules and Memory');
    expect(systemText(before!)).toContain('## docs/style.md (imported by CLAUDE.md)');
    expect(systemText(before!)).toContain('## ~/.claude/CLAUDE.md');
    expect(systemText(before!)).not.toContain('API-MARK');
    expectMemoryOnce(after!, [...ORDER, 'API-MARK']);
    expect(systemText(after!)).toContain('## src/api/CLAUDE.md');

    for (let index = 1; index < 5; index += 1) {
      const run = await runMca(['-c', '-p', `topic-${index}`], { cwd: project.root, env });
      expect(run.code, run.stderr).toBe(0);
    }
    const summaries = server.requests.filter((request) => isSummary(request.body));
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const last = server.requests.at(-1)!.body;
    expect(userText(last)).toContain('[system] ## 📌 Archived Session Summary');
    expectMemoryOnce(last, ORDER);
    for (const request of summaries) expect(userText(request.body)).not.toContain('LAW-MARK');
  });
});
