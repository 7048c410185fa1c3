import { readFile, stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import type { BashData } from '../../src/tools/registry/tool-data.js';
import { dataOf, isAlive, makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const bash = (input: Record<string, unknown>) => runTool(registry, 'Bash', input, ctx);

beforeEach(async () => {
  project = await makeProject({ 'dir with space/ü.txt': 'unicode content\n' });
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

/** Waits until the command has written a pid into `file` (no time limit here: the test timeout bounds it). */
async function pidFrom(file: string): Promise<number> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (/^\d+\n/.test(text)) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Bash', () => {
  it('runs in the project root and returns stdout, stderr and exit code 0', async () => {
    const result = await bash({ command: 'pwd; echo out; echo err >&2; cat "dir with space/ü.txt"' });
    expect(result.status).toBe('success');
    const data = dataOf<BashData>(result);
    expect(data).toMatchObject({ exit_code: 0, stderr: 'err\n' });
    expect(data.stdout).toBe(`${project.root}\nout\nunicode content\n`);
    expect(ctx.requests[0]).toMatchObject({ tool: 'Bash', detail: data.command });
  });

  it('reports a non-zero exit as EXECUTION_ERROR with everything in data', async () => {
    const result = await bash({ command: 'echo partial; echo broke >&2; exit 7' });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('EXECUTION_ERROR');
    expect(result.data).toMatchObject({ exit_code: 7, stdout: 'partial\n', stderr: 'broke\n' });
    expect(result.text).toContain('exit code 7');
  });

  it('leaves no timer behind once a command is done (a pending timer would hold `-p` open after its answer)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    expect((await bash({ command: 'echo hi' })).status).toBe('success');
    // Another module's timer may end meanwhile; what matters is that Bash added none.
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('closes stdin so commands that read it do not hang', async () => {
    const result = await bash({ command: 'cat; echo done' });
    expect(result.data).toMatchObject({ exit_code: 0, stdout: 'done\n' });
  });

  it('times out with TIMEOUT, timed_out, and leaves no child process', async () => {
    const result = await bash({ command: 'sleep 30 & echo $!; echo $$; wait', timeout_ms: 300 });
    expect(result.error?.code).toBe('TIMEOUT');
    const data = dataOf<BashData>(result);
    expect(data.timed_out).toBe(true);
    const pids = data.stdout.trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await isAlive(pid), `pid ${pid}`).toBe(false);
  });

  it('kills a sleep grandchild when aborted and reports interrupted', async () => {
    const pidFile = project.path('pid.txt');
    const running = bash({ command: `sleep 30 & echo $! > pid.txt; wait` });
    const pid = await pidFrom(pidFile);
    expect(await isAlive(pid)).toBe(true);
    ctx.controller.abort();
    const result = await running;
    expect(result.status).toBe('error');
    expect(result.data).toMatchObject({ interrupted: true });
    expect(await isAlive(pid)).toBe(false);
  });

  it('kills a child that traps SIGTERM', async () => {
    const command = `bash -c 'trap "" TERM; echo $$ > pid.txt; while true; do sleep 0.1; done' & wait`;
    const running = bash({ command, timeout_ms: 60_000 });
    const pid = await pidFrom(project.path('pid.txt'));
    ctx.controller.abort();
    const result = await running;
    expect(result.data).toMatchObject({ interrupted: true });
    expect(await isAlive(pid)).toBe(false);
  });

  it('returns when the shell exits even if a background job keeps stdout open', async () => {
    const result = await bash({ command: 'sleep 30 & echo $!' });
    expect(result.status).toBe('success');
    const pid = Number(dataOf<BashData>(result).stdout.trim());
    expect(await isAlive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });

  it('caps each stream, keeping head and tail around a truncation marker', async () => {
    const result = await bash({ command: 'seq 1 20000; seq 1 10 >&2' });
    const data = dataOf<BashData>(result);
    expect(data.stdout_truncated).toBe(true);
    expect(data.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(data.stdout.endsWith('19999\n20000\n')).toBe(true);
    expect(data.stdout).toMatch(/… \[\d+ chars truncated\] …/);
    expect(data.stdout.length).toBeLessThan(30_100);
    expect(data.stderr_truncated).toBeUndefined();
    expect(data.stderr).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n');
  });

  it('does not run when permission is denied, and passes the reason on', async () => {
    ctx = makeContext(project.root, async () => ({ approved: false, reason: 'not now' }));
    const result = await bash({ command: 'touch made.txt' });
    expect(result.error?.code).toBe('PERMISSION_DENIED');
    expect(result.error?.message).toContain('not now');
    await expect(stat(project.path('made.txt'))).rejects.toThrow();
  });

  it("never hands mca's API key to the commands it runs, but keeps the rest of the environment", async () => {
    const saved = { key: process.env.ANTHROPIC_API_KEY, other: process.env.MCA_TEST_VISIBLE };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-do-not-leak';
    process.env.MCA_TEST_VISIBLE = 'visible';
    try {
      const data = dataOf<BashData>(
        await bash({ command: 'echo "key=${ANTHROPIC_API_KEY:-none} other=$MCA_TEST_VISIBLE"' }),
      );
      expect(data.stdout.trim()).toBe('key=none other=visible');
    } finally {
      if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.key;
      if (saved.other === undefined) delete process.env.MCA_TEST_VISIBLE;
      else process.env.MCA_TEST_VISIBLE = saved.other;
    }
  });

  it('validates timeout_ms (max 600000)', async () => {
    expect((await bash({ command: 'true', timeout_ms: 600_001 })).error?.code).toBe('INVALID_PARAM');
    expect((await bash({ command: '' })).error?.code).toBe('INVALID_PARAM');
  });
});
