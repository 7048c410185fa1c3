/**
 * Reading one project file's state for a checkpoint: a regular file's bytes and mode (at most a size cap), its
 * absence, or why it cannot be restored. Opened with O_NOFOLLOW|O_NONBLOCK (a symlink or FIFO swapped in cannot
 * redirect or block the read); a file whose size or times change while it is read is reported as unstable.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { BlobStore } from './blob-store.js';
import type { FileState } from './journal.js';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The stat fields that tell whether a file changed without reading it (git's idea of a clean file). */
export interface StatKey {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

export function sameStat(a: StatKey, b: StatKey): boolean {
  return (
    a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.mode === b.mode
  );
}

export interface Captured {
  state: FileState;
  /** Set for a stored regular file: the stat it had while read (for the scan's cache). */
  stat?: StatKey;
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Captures `absolute` into `blobs`. Never throws for the file's own reasons; a store failure does throw. */
export async function captureFile(
  absolute: string,
  blobs: BlobStore,
  maxBytes: number,
  batch = false,
): Promise<Captured> {
  let handle;
  try {
    // O_NOFOLLOW refuses a symlink (ELOOP); O_NONBLOCK keeps a FIFO from blocking; fstat below checks the rest.
    handle = await open(absolute, OPEN_FLAGS);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: { kind: 'absent' } };
    if (code === 'ELOOP') return { state: { kind: 'unrestorable', reason: 'a symbolic link' } };
    return { state: { kind: 'unrestorable', reason: `unreadable (${code ?? 'error'})` } };
  }
  try {
    const before = await handle.stat();
    if (!before.isFile()) return { state: { kind: 'unrestorable', reason: 'not a regular file' } };
    if (before.size > maxBytes) {
      return { state: { kind: 'unrestorable', reason: `larger than the ${maxBytes}-byte checkpoint limit` } };
    }
    const bytes = await handle.readFile();
    const after = await handle.stat();
    const key = statKey(after);
    if (!sameStat(statKey(before), key) || bytes.length !== after.size) {
      return { state: { kind: 'unrestorable', reason: 'it changed while it was being copied' } };
    }
    if (blobs.holdsSecret(bytes)) {
      return { state: { kind: 'unrestorable', reason: 'it holds an API key mca uses (never copied)' } };
    }
    const hash = await blobs.put(bytes, batch);
    return { state: { kind: 'file', hash, mode: after.mode & 0o7777, size: bytes.length }, stat: key };
  } finally {
    await handle.close();
  }
}

/**
 * `captureFile` for a scan's batch, with synchronous calls (the caller yields between chunks): a scan copies
 * thousands of small files, and each asynchronous open/stat/read/stat/close is a thread-pool round trip and a
 * promise, which cost more CPU than the copy itself. Same checks, same answers; the blob is written in batch mode.
 */
export function captureFileSync(absolute: string, blobs: BlobStore, maxBytes: number): Captured {
  let fd: number;
  try {
    fd = openSync(absolute, OPEN_FLAGS);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: { kind: 'absent' } };
    if (code === 'ELOOP') return { state: { kind: 'unrestorable', reason: 'a symbolic link' } };
    return { state: { kind: 'unrestorable', reason: `unreadable (${code ?? 'error'})` } };
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile()) return { state: { kind: 'unrestorable', reason: 'not a regular file' } };
    if (before.size > maxBytes) {
      return { state: { kind: 'unrestorable', reason: `larger than the ${maxBytes}-byte checkpoint limit` } };
    }
    // One byte more than the size: a file that grew since the fstat is caught by the length check below.
    const buffer = Buffer.allocUnsafe(before.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) break;
    }
    const bytes = buffer.subarray(0, length);
    const after = fstatSync(fd);
    const key = statKey(after);
    if (!sameStat(statKey(before), key) || bytes.length !== after.size) {
      return { state: { kind: 'unrestorable', reason: 'it changed while it was being copied' } };
    }
    if (blobs.holdsSecret(bytes)) {
      return { state: { kind: 'unrestorable', reason: 'it holds an API key mca uses (never copied)' } };
    }
    const hash = blobs.putBatchSync(bytes);
    return { state: { kind: 'file', hash, mode: after.mode & 0o7777, size: bytes.length }, stat: key };
  } catch (error) {
    const code = errno(error);
    // A store failure throws (the call must not run unguarded); a read failure is the file's own reason.
    if (code !== undefined && (error as NodeJS.ErrnoException).syscall === 'read') {
      return { state: { kind: 'unrestorable', reason: `unreadable (${code})` } };
    }
    throw error;
  } finally {
    closeSync(fd);
  }
}

export function statKey(info: { size: number; mtimeMs: number; ctimeMs: number; ino: number; mode: number }): StatKey {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, mode: info.mode };
}
