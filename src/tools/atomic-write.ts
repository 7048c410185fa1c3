import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeStaleTemps, tempNameFor } from './temp-files.js';
import { journalTemp } from './temp-journal.js';
import { PathSwapError, pinDirectory } from './pinned-directory.js';
import { McaError } from '../errors/mca-error.js';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Why an atomic write failed, as a code a tool can return and a line a person can act on. */
export class AtomicWriteError extends McaError {
  constructor(
    readonly code: 'ACCESS_DENIED' | 'EXECUTION_ERROR',
    message: string,
  ) {
    super(message);
    this.name = 'AtomicWriteError';
  }
}

function describeErrno(error: unknown, path: string): AtomicWriteError {
  if (error instanceof PathSwapError) return new AtomicWriteError('ACCESS_DENIED', error.message);
  const code = (error as NodeJS.ErrnoException).code;
  const reason = (error as Error).message;
  if (code === 'EACCES' || code === 'EPERM') {
    return new AtomicWriteError('ACCESS_DENIED', `cannot write ${path}: permission denied (${code})`);
  }
  if (code === 'EROFS') return new AtomicWriteError('ACCESS_DENIED', `cannot write ${path}: read-only file system`);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new AtomicWriteError('EXECUTION_ERROR', `cannot write ${path}: no space left on the device (${code})`);
  }
  return new AtomicWriteError('EXECUTION_ERROR', `cannot write ${path}: ${reason}`);
}

function writeAll(fd: number, content: string): void {
  const bytes = Buffer.from(content, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/**
 * Writes `content` to `absolutePath` (real, inside `root`) so readers see the old file or the new one, never
 * half. The directory is pinned (pinned-directory.ts) and the temp file is created in it with O_EXCL|O_NOFOLLOW,
 * then renamed over the target within that same directory; afterwards the directory must still be inside
 * `root`, or the new file is removed and the write refused. An overwritten file keeps its permission bits.
 * Throws AtomicWriteError.
 */
export async function writeFileAtomic(root: string, absolutePath: string, content: string): Promise<void> {
  const name = basename(absolutePath);
  let dir;
  try {
    dir = pinDirectory(root, dirname(absolutePath), true);
  } catch (error) {
    throw describeErrno(error, absolutePath);
  }
  try {
    await removeStaleTemps(dir.entry(''), name);
    let mode: number | undefined;
    try {
      const info = lstatSync(dir.entry(name));
      if (!info.isFile()) throw new PathSwapError(`${absolutePath} is no longer a regular file`);
      mode = info.mode & 0o7777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const tempName = tempNameFor(name, randomBytes(6).toString('hex'));
    const temp = dir.entry(tempName);
    // Listed before it exists, so a kill at any later moment leaves a temp file the next start can find.
    journalTemp(join(dirname(absolutePath), tempName));
    const fd = openSync(temp, CREATE_FLAGS, mode ?? 0o666);
    try {
      writeAll(fd, content);
      if (mode !== undefined) chmodSync(temp, mode);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkQuietly(temp);
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(temp, dir.entry(name));
    } catch (error) {
      unlinkQuietly(temp);
      throw error;
    }
    if (!dir.stillInside()) {
      unlinkQuietly(dir.entry(name));
      throw new PathSwapError(
        `${absolutePath}: its directory was moved outside the project during the write; the file was removed`,
      );
    }
  } catch (error) {
    throw describeErrno(error, absolutePath);
  } finally {
    dir.close();
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
