/**
 * `mca -p` end to end: the built binary, the real Anthropic SDK, a loopback fake Messages API, real tools in a
 * temp project.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { TOOL_PROTOCOLS, type ToolProtocol } from '../../src/config/config.js';
import { SUMMARY_CLOSING } from '../../src/context/summary-request.js';
import { userText } from '../helpers/fake-anthropic-server.js';
import { fakeAnthropicPerTest } from '../helpers/fake-anthropic-per-test.js';
import type { FakeRequestBody, FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-e2e-0123456789';
const anthropic = fakeAnthropicPerTest();

function project(files: Record<string, string> = {}) {
  return tempProject('mca-e2e-', files);
}

const serve = anthropic.serve;

/** The tool protocol the scenarios run in; the `mca -p` scenarios run once in each (DESIGN.md "Tool protocol"). */
let protocol: ToolProtocol = 'native';

function env(home: string, extra: Record<string, string> = {}) {
  return {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: anthropic.url(),
    MCA_HOME: home,
    MCA_TOOL_PROTOCOL: protocol,
    ...extra,
  };
}

function sessionFiles(home: string): string[] {
  const projects = join(home, 'projects');
  return readdirSync(projects).flatMap((slug) =>
    readdirSync(join(projects, slug))
      .filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name))
      .map((name) => join(projects, slug, name)),
  );
}

function isSummary(body: FakeRequestBody): boolean {
  const content = body.messages?.[0]?.content;
  const blocks = typeof content === 'string' ? [{ text: content }] : (content ?? []);
  return blocks.at(-1)?.text.includes(SUMMARY_CLOSING) === true;
}

const action = (tool: string, input: unknown) => ({ text: `Thought: go\nAction: ${tool}[${JSON.stringify(input)}]` });
const finish = (answer: string) => ({ text: `Thought: done\nAction: Finish[${answer}]` });

describe('mca basics', () => {
  it('prints its version and help, and rejects bad flags with one line and exit 2', async () => {
    const version = await runMca(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+ \(mca\)\n$/) });
    const help = await runMca(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--print', '--output-format', '--continue', '--resume', '--model', '--max-steps', '--cwd']) {
      expect(help.stdout).toContain(flag);
    }
    const bad = await runMca(['--frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/unknown option '--frobnicate'/);
    const format = await runMca(['-p', 'x', '--output-format', 'xml']);
    expect(format.code).toBe(2);
  });

  it('without an API key exits 2 with one line naming ANTHROPIC_API_KEY', async () => {
    const { root, home } = project();
    const run = await runMca(['-p', 'hello'], { cwd: root, env: { MCA_HOME: home } });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('rejects a missing -p prompt, a missing --cwd and an unknown session', async () => {
    const { root, home } = project();
    await serve([]);
    expect((await runMca(['-p'], { cwd: root, env: env(home) })).code).toBe(2);
    expect((await runMca(['-p', 'x', '--cwd', join(root, 'nope')], { env: env(home) })).stderr).toMatch(
      /does not exist/,
    );
    const resume = await runMca(['-p', 'x', '-r', 'ffffffff'], { cwd: root, env: env(home) });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/no session/);
  });
});

describe.each(TOOL_PROTOCOLS)('mca -p against the fake API (%s tool protocol)', (wire) => {
  beforeEach(() => {
    protocol = wire;
  });

  it('runs Read → Edit → Finish, changes the file and prints the answer', async () => {
    const { root, home } = project({
      'math.js': 'export const add = (a, b) => a - b;\n',
      'CODE_LAW.md': 'Rule: tabs.',
    });
    const fake = await serve([
      action('Read', { path: 'math.js' }),
      action('Edit', { path: 'math.js', old_string: 'a - b', new_string: 'a + b' }),
      finish('Fixed add in math.js.'),
    ]);
    const run = await runMca(['-p', 'fix @math.js', '--permission-mode', 'acceptEdits'], { cwd: root, env: env(home) });
    expect(run).toMatchObject({ code: 0, stdout: 'Fixed add in math.js.\n' });
    expect(readFileSync(join(root, 'math.js'), 'utf8')).toContain('a + b');

    expect(fake.requests).toHaveLength(3);
    const first = userText(fake.requests[0]!.body);
    expect(first).toContain('The user mentioned @math.js.');
    expect(userText(fake.requests[1]!.body)).toContain('1\texport const add = (a, b) => a - b;');
    for (const request of fake.requests) {
      expect(JSON.stringify(request.body.system)).toContain('Rule: tabs.');
      if (wire === 'text') expect(request.body.stop_sequences).toEqual(['\nObservation:']);
      else expect(request.body.stop_sequences).toBeUndefined();
      expect(Array.isArray(request.body.tools)).toBe(wire === 'native');
    }

    const [file] = sessionFiles(home);
    const records = readFileSync(file!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const tools = records.filter((record) => (record.message as { role?: string } | undefined)?.role === 'tool');
    expect(tools).toHaveLength(2);
    expect(JSON.parse((tools[1]!.message as { content: string }).content)).toMatchObject({
      status: 'success',
      data: { path: 'math.js', applied: true },
    });
    expect(readFileSync(file!, 'utf8')).not.toContain(KEY);
  });

  it('denies edits in -p by default and tells the model how to allow them', async () => {
    const { root, home } = project({ 'a.txt': 'old\n' });
    const fake = await serve([action('Write', { path: 'b.txt', content: 'new' }), finish('could not write')]);
    const run = await runMca(['-p', 'write b.txt'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(userText(fake.requests[1]!.body)).toMatch(/PERMISSION_DENIED.*--permission-mode/s);
    expect(readdirSync(root)).toEqual(['a.txt']);
  });

  it('joins piped stdin to the prompt and supports json and stream-json output', async () => {
    const { root, home } = project();
    const fake = await serve([finish('looks fine'), finish('again'), finish('once more')]);
    const json = await runMca(['-p', 'review this', '--output-format', 'json'], {
      cwd: root,
      env: env(home),
      stdin: 'diff --git a/x b/x\n+added line\n',
    });
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'looks fine',
      is_error: false,
      num_turns: 1,
      permission_denials: [],
    });
    expect(result.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toMatchObject({ input_tokens: expect.any(Number), cache_read_input_tokens: 0 });
    expect(userText(fake.requests[0]!.body)).toMatch(/review this\n\ndiff --git a\/x b\/x\n\+added line/);

    const args = ['-p', 'again', '--output-format', 'stream-json', '--verbose', '-c'];
    const stream = await runMca(args, { cwd: root, env: env(home) });
    const events = stream.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: result.session_id });
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'again', is_error: false });
    // The old event stream stays available for one release under its own name.
    const old = await runMca(['-p', 'once more', '--output-format', 'mca-stream-json', '-c'], {
      cwd: root,
      env: env(home),
    });
    const reason = wire === 'text' ? 'finish' : 'answer';
    expect(JSON.parse(old.stdout.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ type: 'turn_end', reason });
  });

  it('retries a 529 and succeeds; a 401 fails with one line, exit 1 and no key in the output', async () => {
    const { root, home } = project();
    await serve([{ status: 529, message: 'Overloaded' }, finish('after retry')]);
    const retried = await runMca(['-p', 'hi'], { cwd: root, env: env(home, { MCA_RETRY_BASE_MS: '10' }) });
    expect(retried).toMatchObject({ code: 0, stdout: 'after retry\n' });
    expect(retried.stderr).toMatch(/retrying/);

    await serve([{ status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }]);
    const denied = await runMca(['-p', 'hi', '--output-format', 'text'], { cwd: root, env: env(home) });
    expect(denied.code).toBe(1);
    expect(denied.stderr.trim().split('\n')).toHaveLength(1);
    expect(denied.stderr).toMatch(/401/);
    expect(denied.stderr + denied.stdout).not.toContain(KEY);
  });

  it('compacts a session continued many times with high usage: summary made, old rounds gone, newest kept', async () => {
    const { root, home } = project();
    const heavy = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 40 };
    let turns = 0;
    const summary = '## 📌 Archived Session Summary\n*(Contains context from x to y)*\n\nArchived: topic-0.';
    const step: FakeStep = (body) => {
      if (isSummary(body)) return { text: summary };
      turns += 1;
      return { ...finish(`answer ${turns}`), usage: heavy };
    };
    const fake = await serve(Array.from({ length: 12 }, () => step));
    const base = env(home, { MCA_MIN_RETAIN_ROUNDS: '2' });
    for (let index = 0; index < 5; index += 1) {
      const run = await runMca(['-c', '-p', `topic-${index}`], { cwd: root, env: base });
      expect(run.code, run.stderr).toBe(0);
    }
    const summaries = fake.requests.filter((request) => isSummary(request.body));
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(userText(summaries[0]!.body)).toContain('topic-0');
    const last = userText(fake.requests.at(-1)!.body);
    expect(last).toContain('[system] ## 📌 Archived Session Summary');
    expect(last).not.toContain('[user] topic-0');
    expect(last).toContain('[user] topic-3');
  });

  it('prints the exact fallback line when the summary hangs past MCA_SUMMARY_TIMEOUT_MS and still answers', async () => {
    const { root, home } = project();
    const heavy = { input_tokens: 170_000, output_tokens: 40 };
    const step: FakeStep = (body) => (isSummary(body) ? { hang: true } : { ...finish('ok'), usage: heavy });
    await serve(Array.from({ length: 6 }, () => step));
    const base = env(home, { MCA_MIN_RETAIN_ROUNDS: '1', MCA_SUMMARY_TIMEOUT_MS: '300' });
    await runMca(['-c', '-p', 'one'], { cwd: root, env: base });
    await runMca(['-c', '-p', 'two'], { cwd: root, env: base });
    const third = await runMca(['-c', '-p', 'three'], { cwd: root, env: base });
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('ok\n');
    expect(third.stderr).toContain('mca: Summary generation timed out, keeping recent history only.');
  });

  it('leaves a resumable session when killed mid-turn', async () => {
    const { root, home } = project();
    const fake = await serve([{ hang: true }, finish('resumed fine')]);
    const killed = await runMca(['-p', 'remember the word zebra'], {
      cwd: root,
      env: env(home),
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (fake.requests.length > 0) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        }, 20);
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await runMca(['-c', '-p', 'what word?'], { cwd: root, env: env(home) });
    expect(resumed).toMatchObject({ code: 0, stdout: 'resumed fine\n' });
    expect(userText(fake.requests[1]!.body)).toContain('[user] remember the word zebra');
  });
});

describe('mca -c with a damaged session file', () => {
  it('drops the record that does not fit, says so in one line and continues the session', async () => {
    const { root, home } = project();
    await serve([finish('first')]);
    expect((await runMca(['-p', 'one'], { cwd: root, env: env(home) })).code).toBe(0);
    const [file] = sessionFiles(home);
    // A tool message with no assistant step before it cannot come from mca: the history is invalid.
    const bogus = { role: 'tool', content: '{}', metadata: { round: 1, ts: new Date().toISOString() } };
    writeFileSync(file!, `${readFileSync(file!, 'utf8')}${JSON.stringify({ type: 'message', message: bogus })}\n`);
    await serve([finish('second')]);
    const run = await runMca(['-c', '-p', 'two'], { cwd: root, env: env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('second\n');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/dropped 1 record out of place; the rest of the session loaded$/),
    ]);
    expect(sessionFiles(home)).toHaveLength(1);
  });
});
