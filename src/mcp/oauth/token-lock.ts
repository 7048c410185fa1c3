/**
 * A cross-process lock on one sign-in file, held while its tokens are refreshed: a refresh token is often
 * single-use, so two mca processes refreshing at once would leave one of them (and perhaps the file) with a spent
 * token. The lock is `<file>.lock`, created with O_EXCL (mode 0600) and holding the owner's process stamp (pid and process start time) and the time it was taken.
 * A lock whose owner process is gone, or that is older than `staleMs`, is broken: a crashed mca never blocks the
 * others. Breaking renames the lock aside first (only one breaker wins the rename) and puts it back when it turns
 * out to be a fresh lock another breaker just took. Within one process, holders of the same file queue in order.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ownStamp, stampAlive } from '../../fs/process-liveness.js';
import { McpAuthStoreError } from './errors.js';

/** A refresh is a few requests, each bounded by MCP_TIMEOUT (30 s): an older lock is a leftover. */
export const LOCK_STALE_MS = 90_000;
const POLL_MS = 25;

export interface LockOptions {
  staleMs?: number;
  now?: () => number;
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` while holding the lock on `file` (in this process and across processes). */
export function withFileLock<T>(file: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => holdAndRun(file, work, options));
  const tail = run.catch(() => undefined);
  queues.set(file, tail);
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return run;
}

async function holdAndRun<T>(file: string, work: () => Promise<T>, options: LockOptions): Promise<T> {
  const lock = `${file}.lock`;
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  // `<pid> <time taken> <nonce> <process start time>`: the start time last, so older mca versions still read it.
  const me = ownStamp();
  const mine = `${me.pid} ${now()} ${Math.random().toString(36).slice(2)} ${me.startTime ?? '-'}\n`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  for (;;) {
    if (tryCreate(lock, mine)) break;
    const held = readLock(lock);
    if (held !== undefined && isStale(held, now(), staleMs)) breakLock(lock, held);
    else await sleep(POLL_MS);
  }
  try {
    return await work();
  } finally {
    // Only our own lock is removed (a lock broken as stale and taken by another process stays).
    if (readLock(lock) === mine) rmSync(lock, { force: true });
  }
}

function tryCreate(lock: string, content: string): boolean {
  try {
    writeFileSync(lock, content, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw new McpAuthStoreError(`cannot lock the sign-in file ${lock}: ${code ?? 'error'}`);
  }
}

function readLock(lock: string): string | undefined {
  try {
    return readFileSync(lock, 'utf8');
  } catch {
    return undefined;
  }
}

/** A lock is stale when its owner is not running, when it is older than `staleMs`, or when it is unreadable junk. */
export function isStale(content: string, now: number, staleMs: number): boolean {
  const [pidText, timeText, , startText] = content.trim().split(' ');
  const pid = Number(pidText);
  const time = Number(timeText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !Number.isFinite(time)) return true;
  const owner = startText !== undefined && /^\d+$/.test(startText) ? { pid, startTime: startText } : { pid };
  if (now - time > staleMs) return true;
  // This process holds a file's lock only inside holdAndRun, where it is not asked: one with our pid is a leftover
  // of an earlier process that had the same pid.
  if (owner.pid === process.pid) return true;
  // A live pid that started at another time is a different process that got the pid again (process-liveness.ts).
  return !stampAlive(owner);
}

function breakLock(lock: string, stale: string): void {
  const aside = `${lock}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // another process broke or released it first
  }
  if (readLock(aside) !== stale) {
    // Between our read and the rename another breaker replaced it with a fresh lock: give that one back.
    try {
      linkSync(aside, lock);
    } catch {
      // a third process took the free slot; that lock stands
    }
  }
  rmSync(aside, { force: true });
}
