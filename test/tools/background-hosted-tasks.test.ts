/**
 * The registry's hosted tasks (a command an ACP client's terminal runs, background-tasks.ts attachHosted) on their
 * own: reads copy what is new from the host into the task's file, a stop goes through the host, the end releases
 * it and is told once; past the limit one is refused. And the progress events of a local task: its first output
 * at once, with the last line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundTasks, type HostedTask, type TaskEvent } from '../../src/tools/processes/background-tasks.js';

function fakeHost(): HostedTask & { text: string; calls: string[]; exit: (code: number | null) => void } {
  let exit: (code: number | null) => void = () => undefined;
  const exited = new Promise<{ code: number | null; signal: string | null }>(
    (resolve) => (exit = (code) => resolve({ code, signal: null })),
  );
  const host = {
    text: '',
    calls: [] as string[],
    exited,
    exit: (code: number | null) => exit(code),
    output: async () => {
      host.calls.push('output');
      return host.text;
    },
    kill: async () => {
      host.calls.push('kill');
      exit(null);
    },
    release: async () => void host.calls.push('release'),
  };
  return host;
}

describe('hosted background tasks', () => {
  it('reads what is new through the host, ends on its exit (released, told once), and stops through it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgh-'));
    const tasks = new BackgroundTasks(() => 2);
    const events: TaskEvent[] = [];
    tasks.subscribe((event) => events.push(event));
    const host = fakeHost();
    const started = tasks.attachHosted({ command: 'npm run dev', callId: 'toolu_h', dir }, host);
    if (!started.ok) throw new Error(started.message);
    const { id } = started.task;
    host.text = 'ready on :3000\n';
    expect((await tasks.read(id))?.text).toBe('ready on :3000\n');
    host.text += 'GET /\n';
    expect((await tasks.read(id))?.text).toBe('GET /\n');
    host.exit(0);
    expect(await tasks.waitEnded(id, 10_000, new AbortController().signal)).toBe(true);
    expect(tasks.get(id)).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(host.calls.at(-1)).toBe('release');
    expect(tasks.takeNotices()).toHaveLength(1);
    // A second progress event comes only if a second passed between the reads.
    const kinds = events.map((event) => event.kind);
    expect([kinds[0], kinds[1], kinds.at(-1)]).toEqual(['started', 'progress', 'ended']);

    const other = fakeHost();
    const second = tasks.attachHosted({ command: 'tail -f log', callId: 'toolu_i', dir }, other);
    if (!second.ok) throw new Error(second.message);
    expect((await tasks.stop(second.task.id))?.status).toBe('stopped');
    expect(other.calls).toContain('kill');
    expect(other.calls.at(-1)).toBe('release');
  });

  it('refuses a hosted task past the limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgh-'));
    const tasks = new BackgroundTasks(() => 0);
    expect(tasks.attachHosted({ command: 'x', callId: 'toolu_j', dir }, fakeHost())).toEqual({
      ok: false,
      message: expect.stringContaining('At most 0 background tasks'),
    });
  });

  it("a local task's first output is a progress event at once, carrying its last line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgh-'));
    const tasks = new BackgroundTasks(() => 2);
    const progress: TaskEvent[] = [];
    tasks.subscribe((event) => event.kind === 'progress' && progress.push(event));
    const started = tasks.start({
      command: 'printf "one\\ntwo\\n"',
      callId: 'toolu_k',
      cwd: dir,
      shell: '/bin/sh',
      env: { PATH: process.env.PATH ?? '' },
      dir,
    });
    if (!started.ok) throw new Error(started.message);
    await tasks.waitEnded(started.task.id, 10_000, new AbortController().signal);
    expect(progress[0]).toMatchObject({ kind: 'progress', lastLine: 'two', task: { id: started.task.id } });
  });
});
