/**
 * Reading a file mca opens on its own (config files, CODE_LAW.md, later memory files): it must be a regular
 * file, its real path must stay inside `root` (when one is given), and at most `maxBytes` are read. A FIFO
 * cannot block the open (O_NONBLOCK), a device or /dev/zero cannot feed endless bytes, and a symlink swapped in
 * after the check is caught by looking at what the descriptor really opened.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { descriptorInside, isInside } from './contained-path.js';

export type SkipReason = 'missing' | 'not_regular' | 'outside' | 'too_large' | 'unreadable';

export type BoundedRead =
  | { ok: true; text: string; sizeBytes: number; truncated: boolean; realPath: string }
  | { ok: false; reason: SkipReason; message: string };

export interface BoundedReadOptions {
  maxBytes: number;
  /** The file's real path must lie inside this (already real) directory. */
  root?: string;
  /** Over `maxBytes`: false (default) refuses the file, true returns its first `maxBytes`. */
  truncate?: boolean;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const UTF8_BOM = '\ufeff';

function skip(reason: SkipReason, message: string): BoundedRead {
  return { ok: false, reason, message };
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Reads `path` under the rules above. Never throws; a leading UTF-8 BOM is dropped. */
export function readBoundedFile(path: string, options: BoundedReadOptions): BoundedRead {
  let realPath: string;
  try {
    realPath = realpathSync(path);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return skip('missing', `${path} does not exist`);
    return skip('unreadable', `${path} cannot be read (${code ?? (error as Error).message})`);
  }
  if (options.root !== undefined && !isInside(options.root, realPath)) {
    return skip('outside', `${path} is a symlink to ${realPath}, outside ${options.root}`);
  }
  let fd: number;
  try {
    fd = openSync(realPath, OPEN_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ELOOP') return skip('outside', `${path} was replaced by a symlink while being opened`);
    return skip('unreadable', `${path} cannot be read (${code ?? (error as Error).message})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return skip('not_regular', `${path} is not a regular file (a FIFO, device or directory)`);
    if (options.root !== undefined && !descriptorInside(fd, options.root)) {
      return skip('outside', `${path} was moved outside ${options.root} while being opened`);
    }
    if (info.size > options.maxBytes && options.truncate !== true) {
      return skip('too_large', `${path} is ${info.size} bytes, over the ${options.maxBytes}-byte limit`);
    }
    const limit = Math.min(info.size, options.maxBytes);
    const buffer = Buffer.alloc(limit);
    let length = 0;
    while (length < limit) {
      const read = readSync(fd, buffer, length, limit - length, length);
      if (read === 0) break;
      length += read;
    }
    let text = buffer.subarray(0, length).toString('utf8');
    if (text.startsWith(UTF8_BOM)) text = text.slice(1);
    return { ok: true, text, sizeBytes: info.size, truncated: info.size > length, realPath };
  } catch (error) {
    return skip('unreadable', `${path} cannot be read (${errnoOf(error) ?? (error as Error).message})`);
  } finally {
    closeSync(fd);
  }
}
