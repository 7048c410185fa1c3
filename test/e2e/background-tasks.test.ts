/**
 * Background shells through the built binary (issue 39): a scripted model starts a background command that waits
 * for a file, gets control back at once (it goes on to create that file itself), reads the task's output, stops a
 * second task and leaves a third running; after `mca -p` exits nothing it started is still running.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import type { FakePlainStep, FakeRequestBody, FakeStep } from '../helpers/fake-anthropic-steps.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { processesGone } from './support/processes.js';

const KEY = 'sk-ant-test-background-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The id of the newest background task the last request's tool results announce. */
function lastTaskId(body: FakeRequestBody): string {
  const ids = [...userText(body).matchAll(/running in background with ID: (\S+?)\./g)].map((match) => match[1]);
  const id = ids.at(-1);
  if (id === undefined) throw new Error('no background task id in the request');
  return id;
}

describe('Bash run_in_background, TaskOutput and TaskStop through the built binary', () => {
  it('returns at once, reads the output, stops a task, and leaves nothing running after exit', async () => {
    const { root, home } = tempProject('mca-bg-', { 'README.md': 'x\n' });
    const marker = `mca-bg-marker-${process.pid}-${Date.now()}`;
    const ids: Record<string, string> = {};
    const seen: FakeRequestBody[] = [];
    const call = (name: string, input: Record<string, unknown>): FakePlainStep => ({
      text: `Calling ${name}.`,
      calls: [{ name, input }],
    });
    const record =
      (next: (body: FakeRequestBody) => FakePlainStep): FakeStep =>
      (body) => {
        seen.push(body);
        return next(body);
      };
    const script: FakeStep[] = [
      // 1. a command that only ends once `go` exists: the call must come back before it does.
      record(() =>
        call('Bash', {
          command: `echo first-line; until [ -f go ]; do sleep 0.05; done; echo finished > out.txt; echo last-line; true ${marker}`,
          run_in_background: true,
        }),
      ),
      // 2. control is back: create `go` in the foreground.
      record((body) => {
        ids.first = lastTaskId(body);
        return call('Bash', { command: 'touch go' });
      }),
      // 3. wait for the first task and read its output.
      record(() => call('TaskOutput', { task_id: ids.first, block: true, timeout: 60000 })),
      // 4. a long one to stop.
      record(() => call('Bash', { command: `sleep 297; true ${marker}`, run_in_background: true })),
      record((body) => {
        ids.second = lastTaskId(body);
        return call('TaskStop', { task_id: ids.second });
      }),
      // 5. one left running when the session ends; under its older name, a read of the stopped one.
      record(() => call('Bash', { command: `sleep 298; true ${marker}`, run_in_background: true })),
      record((body) => {
        ids.third = lastTaskId(body);
        return call('BashOutput', { bash_id: ids.second });
      }),
      record(() => ({ text: 'All done.' })),
    ];
    server = await startFakeAnthropic(script);
    const run = await runMca(['-p', 'run the background work', '--permission-mode', 'bypassPermissions'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home },
      timeoutMs: 90_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('All done.');
    expect(seen).toHaveLength(8);

    // The first task ran to its end after control came back, and its output reached the model.
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('finished\n');
    const readOutput = userText(seen[3] as FakeRequestBody);
    expect(readOutput).toMatch(new RegExp(`Task ${ids.first}: completed \\(exit code 0\\)\\nfirst-line\\nlast-line`));
    // Its end is told at most once (a notice may come with `touch go`'s result if it ended first; none after the read).
    expect(userText(seen[7] as FakeRequestBody).split(`<task-id>${ids.first}</task-id>`).length).toBeLessThanOrEqual(2);

    // The second was stopped; reading it under BashOutput says so.
    expect(userText(seen[5] as FakeRequestBody)).toContain(`Successfully stopped task: ${ids.second}`);
    expect(userText(seen[7] as FakeRequestBody)).toContain(`Task ${ids.second}: stopped`);

    // Output on disk, under the session's directory in MCA_HOME.
    expect(userText(seen[1] as FakeRequestBody)).toContain(home);

    // Nothing mca started is still running: not the shells (marker in their command line), not their sleeps. The
    // kill on exit is sent before mca is gone; the kernel ends the processes on its own schedule, so wait (bounded).
    expect(await processesGone(marker, root)).toEqual([]);
    expect(await processesGone('sleep 297', root)).toEqual([]);
    expect(await processesGone('sleep 298', root)).toEqual([]);
    expect(existsSync(join(root, 'go'))).toBe(true);
  });

  it('tells the model in its next request when a background task ends, with its exit code and last lines', async () => {
    const { root, home } = tempProject('mca-bg-notice-', { 'README.md': 'x\n' });
    const seen: FakeRequestBody[] = [];
    const reply =
      (step: FakePlainStep): FakeStep =>
      (body) => {
        seen.push(body);
        return step;
      };
    const background = 'echo $$ > bg.pid; echo tail-a; echo tail-b; exit 3';
    // Waits for the state (the background shell gone), not for a time.
    const wait =
      'until [ -s bg.pid ]; do sleep 0.05; done; while kill -0 "$(cat bg.pid)" 2>/dev/null; do sleep 0.05; done';
    server = await startFakeAnthropic([
      reply({ text: 'Start it.', calls: [{ name: 'Bash', input: { command: background, run_in_background: true } }] }),
      reply({ text: 'Wait for it.', calls: [{ name: 'Bash', input: { command: wait } }] }),
      reply({ text: 'Noted.' }),
    ]);
    const run = await runMca(['-p', 'go', '--permission-mode', 'bypassPermissions'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home },
    });
    expect(run.code).toBe(0);
    // The notice comes with the first result after the end (a quick task's even with its own start), once.
    const last = userText(seen[2] as FakeRequestBody);
    expect(last.split('<task-notification>')).toHaveLength(2);
    expect(last).toContain('<status>failed</status>');
    expect(last).toContain('failed with exit code 3');
    expect(last).toContain('tail-a\ntail-b');
  });

  it('stream-json carries task_started and task_notification lines in the SDK shapes', async () => {
    const { root, home } = tempProject('mca-bg-stream-', { 'README.md': 'x\n' });
    const wait =
      'until [ -s bg.pid ]; do sleep 0.05; done; while kill -0 "$(cat bg.pid)" 2>/dev/null; do sleep 0.05; done';
    server = await startFakeAnthropic([
      {
        text: 'Start it.',
        calls: [{ id: 'toolu_bg_1', name: 'Bash', input: { command: 'echo $$ > bg.pid', run_in_background: true } }],
      },
      { text: 'Wait for it.', calls: [{ name: 'Bash', input: { command: wait } }] },
      { text: 'Done.' },
    ]);
    const run = await runMca(
      ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
      { cwd: root, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home } },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const started = lines.find((line) => line.subtype === 'task_started');
    expect(started).toMatchObject({
      type: 'system',
      task_id: 'bash_1',
      tool_use_id: 'toolu_bg_1',
      description: 'echo $$ > bg.pid',
      task_type: 'local_bash',
    });
    const ended = lines.find((line) => line.subtype === 'task_notification');
    expect(ended).toMatchObject({ type: 'system', task_id: 'bash_1', tool_use_id: 'toolu_bg_1', status: 'completed' });
    expect(typeof ended?.output_file).toBe('string');
    expect(typeof ended?.session_id).toBe('string');
  });
});
