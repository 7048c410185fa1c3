/**
 * One process-liveness check that survives pid reuse (src/fs/process-liveness.ts): a lock or temp file whose
 * recorded pid is alive but belongs to a different process (the pid was reused: its start time differs) is not
 * taken for a live owner, by the sign-in token lock, the temp files, the temp journals and the session lock.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processStartTime, stampAlive, stampToken } from '../../src/fs/process-liveness.js';
import { removeStaleTemps } from '../../src/fs/temp-files.js';
import { isStale } from '../../src/mcp/oauth/token-lock.js';
import { SessionLock } from '../../src/store/session-lock.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mca-live-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The parent (the test runner) is surely alive; a stamp with another start time is the same pid reused.
const pid = process.ppid;
const started = processStartTime(pid);
const onLinux = started !== undefined;
const reused = onLinux ? String(Number(started) + 1) : '1';

describe.skipIf(!onLinux)('a reused pid is not a live owner', () => {
  it('the stamp check itself', () => {
    expect(stampAlive({ pid, startTime: started! })).toBe(true);
    expect(stampAlive({ pid, startTime: reused })).toBe(false);
    expect(stampAlive({ pid })).toBe(true);
  });

  it('the sign-in token lock: a fresh lock of a live pid with another start time is stale', () => {
    const now = Date.now();
    expect(isStale(`${pid} ${now} abc ${started}\n`, now, 90_000)).toBe(false);
    expect(isStale(`${pid} ${now} abc ${reused}\n`, now, 90_000)).toBe(true);
  });

  it("temp files: a reused pid's leftover is removed, the live writer's kept", () => {
    const live = `.a.txt.mca-${stampToken({ pid, startTime: started! })}-0a1b.tmp`;
    const dead = `.a.txt.mca-${stampToken({ pid, startTime: reused })}-0a1b.tmp`;
    writeFileSync(join(dir, live), 'x');
    writeFileSync(join(dir, dead), 'x');
    expect(removeStaleTemps(dir, 'a.txt')).toBe(1);
    expect(readdirSync(dir)).toEqual([live]);
  });

  it('the session lock: a lock naming a live pid with another start time is taken over', () => {
    const path = join(dir, 's.lock');
    writeFileSync(path, JSON.stringify({ pid, startTime: reused, token: 'x' }));
    const lock = SessionLock.acquire(path, 's');
    lock.release();
    writeFileSync(path, JSON.stringify({ pid, startTime: started, token: 'x' }));
    expect(() => SessionLock.acquire(path, 's')).toThrow(/SESSION_LOCKED|locked|in use/i);
  });
});
