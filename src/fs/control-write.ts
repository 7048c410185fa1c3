/**
 * Writing mca's own control files (a project's `.mca/settings.local.json`; under MCA_HOME the trust store, input
 * history, tool memory). A planted symlink must never redirect such a write: the temp file has a random name and
 * is created with O_CREAT|O_EXCL|O_NOFOLLOW (a link or file already at that name fails the open instead of being
 * followed), then renamed over the target, which replaces a symlink standing there instead of writing through it.
 * When a `root` is given, the directory is opened with O_NOFOLLOW|O_DIRECTORY and its real path (read through
 * the descriptor) must lie inside `root`; the temp file is created and renamed through that descriptor, so a
 * directory that is, or becomes, a symlink out of the root is refused, never written into.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { McaError } from '../errors/mca-error.js';
import { descriptorPath, isInside } from './contained-path.js';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** Why a control file was not written: the path and the cause in one line. */
export class ControlWriteError extends McaError {
  readonly code = 'CONTROL_WRITE_FAILED' as const;
  constructor(
    message: string,
    /** The errno code when the file system refused (ENOSPC, EROFS, ELOOP, …). */
    readonly errno?: string,
  ) {
    super(message);
  }
}

export interface ControlWriteOptions {
  /** Permission bits of a new file (default 0600: control files are private). */
  mode?: number;
  /** The directory's real path must lie inside this real directory (a project root). */
  root?: string;
  /**
   * Flush the file to the disk before the rename (default true). A cache whose reader checks what it reads (tool
   * memory's content hashes) may skip it: after a crash its file is then whole, missing or empty, never wrong.
   */
  durable?: boolean;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A directory's entries through its descriptor (Linux `/proc/self/fd`), or its plain path where there is none. */
function entryPath(dirFd: number, dir: string): (name: string) => string {
  return descriptorPath(dirFd) === undefined ? (name) => join(dir, name) : (name) => `/proc/self/fd/${dirFd}/${name}`;
}

/**
 * Ensures `root/relative` (one or more components) is a real directory inside `root`, creating what is missing
 * with `mode`. A component that is a symlink, or not a directory, is refused. Returns the directory's path.
 */
export function controlDirectory(root: string, relative: string, mode = 0o755): string {
  let current = root;
  for (const part of relative.split('/').filter((piece) => piece !== '' && piece !== '.')) {
    if (part === '..') throw new ControlWriteError(`${join(root, relative)} climbs out of ${root}`);
    current = join(current, part);
    let info = lstatSync(current, { throwIfNoEntry: false });
    if (info === undefined) {
      try {
        mkdirSync(current, { mode });
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') {
          throw new ControlWriteError(`cannot create ${current} (${errnoOf(error) ?? String(error)})`, errnoOf(error));
        }
      }
      info = lstatSync(current, { throwIfNoEntry: false });
    }
    if (info?.isSymbolicLink()) {
      throw new ControlWriteError(
        `${current} is a symlink; mca writes its control files only into a real directory inside ${root}`,
      );
    }
    if (!info?.isDirectory()) throw new ControlWriteError(`${current} is not a directory`);
  }
  return current;
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * Replaces `path` with `text` atomically (readers see the old file or the new one). Throws ControlWriteError
 * naming the path and the cause; no temp file is left behind.
 */
export function writeControlFile(path: string, text: string, options: ControlWriteOptions = {}): void {
  const dir = join(path, '..');
  const name = basename(path);
  const mode = options.mode ?? 0o600;
  let dirFd: number;
  try {
    // Inside a project the directory itself must not be a link; MCA_HOME (the user's) may be one (dotfiles).
    dirFd = openSync(dir, options.root === undefined ? DIR_FLAGS : DIR_FLAGS | constants.O_NOFOLLOW);
  } catch (error) {
    const code = errnoOf(error);
    const why = code === 'ELOOP' || code === 'ENOTDIR' ? 'it is a symlink or not a directory' : (code ?? String(error));
    throw new ControlWriteError(`cannot write ${path}: ${dir} cannot be opened (${why})`, code);
  }
  try {
    const real = descriptorPath(dirFd) ?? dir;
    if (options.root !== undefined && !isInside(options.root, real)) {
      throw new ControlWriteError(`cannot write ${path}: its directory resolves to ${real}, outside ${options.root}`);
    }
    const entry = entryPath(dirFd, dir);
    const tempName = `.${name}.${randomBytes(8).toString('hex')}.tmp`;
    let fd: number;
    try {
      fd = openSync(entry(tempName), CREATE_FLAGS, mode);
    } catch (error) {
      throw new ControlWriteError(`cannot write ${path} (${errnoOf(error) ?? String(error)})`, errnoOf(error));
    }
    try {
      fchmodSync(fd, mode);
      writeAll(fd, text);
      if (options.durable !== false) fsyncSync(fd);
      closeSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkQuietly(entry(tempName));
      throw new ControlWriteError(`cannot write ${path} (${errnoOf(error) ?? String(error)})`, errnoOf(error));
    }
    try {
      renameSync(entry(tempName), entry(name));
    } catch (error) {
      unlinkQuietly(entry(tempName));
      throw new ControlWriteError(`cannot write ${path} (${errnoOf(error) ?? String(error)})`, errnoOf(error));
    }
  } finally {
    closeSync(dirFd);
  }
}
