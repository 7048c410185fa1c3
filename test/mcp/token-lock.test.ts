/**
 * The sign-in file's lock (src/mcp/oauth/token-lock.ts): holders of one file run one at a time, a lock left by a
 * process that is gone or that is too old is broken, a live one is waited for, and the lock file is 0600 and gone
 * afterwards. The cross-process case runs through the built binary in test/e2e/mcp-oauth-refresh.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStale, withFileLock } from '../../src/mcp/oauth/token-lock.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mca-lock-')), 'mcp-auth', 'server.json');
}

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid ?? 999_999_999;
}

describe('the sign-in file lock', () => {
  it('runs holders of one file one after the other, and removes its 0600 lock file afterwards', async () => {
    const file = tempFile();
    const order: string[] = [];
    let modeWhileHeld = 0;
    const hold = (name: string) =>
      withFileLock(file, async () => {
        order.push(`${name}:in`);
        modeWhileHeld = statSync(`${file}.lock`).mode & 0o777;
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`${name}:out`);
        return name;
      });
    const results = await Promise.all([hold('a'), hold('b')]);
    expect(results).toEqual(['a', 'b']);
    expect(order).toEqual(['a:in', 'a:out', 'b:in', 'b:out']);
    expect(modeWhileHeld).toBe(0o600);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a failing holder releases the lock for the next', async () => {
    const file = tempFile();
    await expect(withFileLock(file, () => Promise.reject(new Error('refresh failed')))).rejects.toThrow(
      'refresh failed',
    );
    await expect(withFileLock(file, () => Promise.resolve('next'))).resolves.toBe('next');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('breaks a lock left by a process that is gone (or an earlier one with this pid), and one too old, but not a live fresh one', async () => {
    const file = tempFile();
    await withFileLock(file, () => Promise.resolve());
    writeFileSync(`${file}.lock`, `${deadPid()} ${Date.now()} x\n`);
    await expect(withFileLock(file, () => Promise.resolve('after a crash'))).resolves.toBe('after a crash');

    writeFileSync(`${file}.lock`, `${process.pid} ${Date.now()} left-by-an-earlier-process-with-this-pid\n`);
    await expect(withFileLock(file, () => Promise.resolve('pid reused'))).resolves.toBe('pid reused');

    writeFileSync(`${file}.lock`, `${process.ppid} ${Date.now() - 10 * 60_000} x\n`);
    await expect(withFileLock(file, () => Promise.resolve('after a hang'))).resolves.toBe('after a hang');

    expect(isStale(`${process.ppid} ${Date.now()} x`, Date.now(), 90_000)).toBe(false);
    expect(isStale('garbage', Date.now(), 90_000)).toBe(true);
  });

  it('waits for a live lock held by another process until it is released', async () => {
    const file = tempFile();
    await withFileLock(file, () => Promise.resolve());
    const foreign = `${process.ppid} ${Date.now()} other\n`;
    writeFileSync(`${file}.lock`, foreign);
    let entered = false;
    const waiting = withFileLock(file, () => {
      entered = true;
      return Promise.resolve();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(entered).toBe(false);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(foreign);
    rmSync(`${file}.lock`); // the other process is done
    await waiting;
    expect(entered).toBe(true);
  });
});
