/** The background task registry on its own: the limit on running tasks, the bound on kept output, reads since the last read. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundTasks, type StartRequest } from '../../src/tools/processes/background-tasks.js';

function request(command: string, dir: string): StartRequest {
  return { command, callId: 'toolu_1', cwd: dir, shell: '/bin/sh', env: { PATH: process.env.PATH ?? '' }, dir };
}

describe('BackgroundTasks', () => {
  it('refuses a task past the limit, and takes one again once a task is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgt-'));
    const tasks = new BackgroundTasks(() => 1);
    const first = tasks.start(request('sleep 30', dir));
    expect(first.ok).toBe(true);
    const second = tasks.start(request('sleep 30', dir));
    expect(second).toEqual({ ok: false, message: expect.stringContaining('At most 1 background task') });
    if (first.ok) expect((await tasks.stop(first.task.id))?.status).toBe('stopped');
    const third = tasks.start(request('true', dir));
    expect(third.ok).toBe(true);
    await tasks.stopAll();
  });

  it('keeps at most the bound on disk, counts the rest, and reads only what is new', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgt-'));
    const tasks = new BackgroundTasks(() => 8, 10);
    const started = tasks.start(request('printf 0123456789abcdef', dir));
    if (!started.ok) throw new Error(started.message);
    const { id } = started.task;
    expect(await tasks.waitEnded(id, 10_000, new AbortController().signal)).toBe(true);
    const read = await tasks.read(id);
    expect(read?.text).toBe('0123456789');
    expect(read?.task).toMatchObject({ status: 'completed', exitCode: 0, outputBytes: 10, droppedBytes: 6 });
    expect((await tasks.read(id))?.text).toBe('');
    // Its end was read: no notice is due.
    expect(tasks.takeNotices()).toEqual([]);
  });

  it('gives a notice once for a task that ended unread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-bgt-'));
    const tasks = new BackgroundTasks();
    const started = tasks.start(request('echo one; exit 2', dir));
    if (!started.ok) throw new Error(started.message);
    await tasks.waitEnded(started.task.id, 10_000, new AbortController().signal);
    const [notice, ...rest] = tasks.takeNotices();
    expect(rest).toEqual([]);
    expect(notice).toContain('<status>failed</status>');
    expect(notice).toContain('exit code 2');
    expect(notice).toContain('one');
    expect(tasks.takeNotices()).toEqual([]);
  });
});
