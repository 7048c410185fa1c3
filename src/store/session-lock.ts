/**
 * One live process per session: `<id>.lock` beside the session file names its owner (its process stamp:
 * pid and start time, src/fs/process-liveness.ts, so a reused pid is not mistaken for the owner). A lock whose owner is gone (kill -9, power loss)
 * is taken over; a live owner's lock makes the second process stop with SESSION_LOCKED. The lock is created
 * with its content in one step (link of a finished temp file), so nobody ever reads a half-written lock.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { ownStamp, stampAlive } from '../fs/process-liveness.js';
import { SessionError } from './session-error.js';

interface Owner {
  pid: number;
  startTime?: string;
  /** Tells two opens by the same process apart (the REPL's /resume of the session it already has). */
  token?: string;
}

function readOwner(path: string): Owner | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>;
    return typeof value.pid === 'number' ? (value as Owner) : undefined;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Whether the lock at `path` names a process that is still running (session clean-up never removes its session). */
export function lockIsLive(path: string): boolean {
  const owner = readOwner(path);
  return owner !== undefined && stampAlive(owner);
}

export class SessionLock {
  private held = true;
  private readonly onExit = (): void => this.release();

  private constructor(
    readonly path: string,
    private readonly token: string,
  ) {
    process.once('exit', this.onExit);
  }

  /** Takes the lock at `path` for this process. Throws SessionError SESSION_LOCKED when a live process holds it. */
  static acquire(path: string, sessionId: string): SessionLock {
    const me: Owner = { ...ownStamp(), token: randomBytes(8).toString('hex') };
    const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    // Created exclusively, never through a link planted at the name.
    const flag = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const fd = openSync(temp, flag, 0o600);
    try {
      writeFileSync(fd, JSON.stringify(me));
    } finally {
      closeSync(fd);
    }
    try {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        try {
          linkSync(temp, path);
          return new SessionLock(path, me.token ?? '');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const owner = readOwner(path);
        if (owner !== undefined && owner.pid !== process.pid && stampAlive(owner)) {
          throw new SessionError(
            'SESSION_LOCKED',
            `session ${sessionId} is in use by another mca (pid ${owner.pid}); wait for it to end, or start a new session`,
          );
        }
        // The owner is gone (or the lock is ours from an earlier open): move it aside, then check what was moved.
        const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
        try {
          renameSync(path, aside);
        } catch {
          continue; // someone else took it over first; try again
        }
        const moved = readOwner(aside);
        if (moved !== undefined && moved.pid !== process.pid && stampAlive(moved)) {
          // A live process took it over between our read and our rename: give it back.
          try {
            linkSync(aside, path);
          } catch {
            // it already re-created its lock
          }
          unlinkQuietly(aside);
          throw new SessionError('SESSION_LOCKED', `session ${sessionId} is in use by another mca (pid ${moved.pid})`);
        }
        unlinkQuietly(aside);
      }
      throw new SessionError('SESSION_LOCKED', `session ${sessionId} is being opened by another mca; try again`);
    } finally {
      unlinkQuietly(temp);
    }
  }

  /** Idempotent; removes the lock only while it is still this process's. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    process.off('exit', this.onExit);
    if (readOwner(this.path)?.token === this.token) unlinkQuietly(this.path);
  }
}
