/**
 * Unattended runs that stop themselves, through the built binary against the loopback model: the stall watchdog
 * (MCA_STALL_TIMEOUT) ends a turn whose model or tool makes no progress, with one line and an error result, and its
 * Bash command is gone; a model looping on one call is told once and stopped at its second streak; SIGTERM during a
 * turn finishes the session file, prints the result line and exits 143. On the old tree a stalled run waited
 * forever, a loop was stopped without being told, and SIGTERM printed no result.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { MCA_BIN, runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { processesMatching } from './support/processes.js';

const KEY = 'sk-ant-test-stops-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const envFor = (home: string, url: string, extra: Record<string, string> = {}) => ({
  ANTHROPIC_API_KEY: KEY,
  ANTHROPIC_BASE_URL: url,
  MCA_HOME: home,
  HOME: home,
  ...extra,
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('runs that stop themselves', () => {
  it('the stall watchdog ends a turn whose Bash command makes no progress, and the command is gone', async () => {
    const { root, home } = tempProject('mca-stall-');
    server = await startFakeAnthropic([
      { text: '', calls: [{ name: 'Bash', input: { command: 'sleep 47.25' } }] },
      { text: 'never asked' },
    ]);
    const run = await runMca(['-p', 'wait', '--output-format', 'json', '--dangerously-skip-permissions'], {
      cwd: root,
      env: envFor(home, server.url, { MCA_STALL_TIMEOUT: '1' }),
    });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true, mca_stop: 'stalled' });
    expect(String((result.errors as string[])[0])).toContain('no progress from the model or a tool for 1 s');
    expect(processesMatching('sleep 47.25', root)).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('the stall watchdog ends a turn whose model never answers (text: one line on stderr)', async () => {
    const { root, home } = tempProject('mca-stall-model-');
    server = await startFakeAnthropic([{ hang: true }]);
    const run = await runMca(['-p', 'hi'], { cwd: root, env: envFor(home, server.url, { MCA_STALL_TIMEOUT: '1' }) });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toContain(
      'mca: Stopped: no progress from the model or a tool for 1 s (MCA_STALL_TIMEOUT); the turn was interrupted.',
    );
  });

  it('a loop on one call: told once with the earlier result, stopped at the second streak (mca_stop)', async () => {
    const { root, home } = tempProject('mca-loop-');
    const glob = { text: '', calls: [{ name: 'Glob', input: { pattern: '*.md' } }] };
    server = await startFakeAnthropic([glob, glob, glob, glob, glob, { text: 'never asked' }]);
    const run = await runMca(['-p', 'find', '--output-format', 'json'], { cwd: root, env: envFor(home, server.url) });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ is_error: true, mca_stop: 'repeated_calls' });
    expect(JSON.stringify(server.requests[4]!.body.messages?.at(-1))).toContain('so it was not run again');
    expect(server.requests).toHaveLength(5);
  });

  it('SIGTERM during a turn: the result line, a complete session file, exit 143', async () => {
    const { root, home } = tempProject('mca-sigterm-');
    server = await startFakeAnthropic([{ hang: true }]);
    const child = spawn(process.execPath, [MCA_BIN, '-p', 'hi', '--output-format', 'stream-json', '--verbose'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...envFor(home, server.url) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await until(() => server!.requests.length > 0);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const last = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'result', is_error: true, mca_stop: 'terminated' });
    const projects = join(home, 'projects');
    const [dir] = readdirSync(projects);
    const file = readdirSync(join(projects, dir!)).find((name) => name.endsWith('.jsonl'))!;
    const records = readFileSync(join(projects, dir!, file), 'utf8')
      .trim()
      .split('\n');
    // Every line is whole JSON and the round was closed.
    const parsed = records.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(JSON.stringify(parsed.at(-1))).toContain('interrupted');
  });

  it('SIGTERM to a headless session with its input still open: the result line, exit 143', async () => {
    const { root, home } = tempProject('mca-sigterm-headless-');
    server = await startFakeAnthropic([{ hang: true }]);
    const args = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
    const child = spawn(process.execPath, [MCA_BIN, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...envFor(home, server.url) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    await until(() => server!.requests.length > 0);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const last = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'result', is_error: true, mca_stop: 'terminated' });
  });
});
