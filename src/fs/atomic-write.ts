/**
 * The one atomic file writer: readers see the old file or the new one, never half, and a planted symlink never
 * redirects the write. Used for the files the tools write into a project (Write, Edit, MultiEdit) and for mca's
 * own control files (a project's `.claude/settings.local.json`; under MCA_HOME the trust store, input history,
 * tool memory).
 *
 * The directory is opened once and used by descriptor (pinned-directory.ts): with a `root`, one component at a
 * time from the root with O_NOFOLLOW, so no symlink can stand anywhere on the path and a directory moved out of
 * the root meanwhile is caught after the rename (the new file is then removed). The temp file has an mca temp
 * name carrying this process's stamp (temp-files.ts; listed in the temp journal first, so a kill at any moment
 * leaves a temp the next start can find) and is created with O_CREAT|O_EXCL|O_NOFOLLOW, then renamed over the
 * target, which replaces a symlink standing there instead of writing through it.
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
import { basename, dirname, join } from 'node:path';
import { McaError } from '../errors/mca-error.js';
import { descriptorPath } from './contained-path.js';
import { PathSwapError, pinDirectory, type PinnedDirectory } from './pinned-directory.js';
import { removeStaleTemps, tempNameFor } from './temp-files.js';
import { journalTemp } from './temp-journal.js';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** Why a write failed, as a code a tool can return and a line a person can act on (the path and the cause). */
export class AtomicWriteError extends McaError {
  constructor(
    readonly code: 'ACCESS_DENIED' | 'EXECUTION_ERROR',
    message: string,
    /** The errno code when the file system refused (ENOSPC, EROFS, ELOOP, …). */
    readonly errno?: string,
  ) {
    super(message);
    this.name = 'AtomicWriteError';
  }
}

export interface AtomicWriteOptions {
  /**
   * A real directory the file's directory must lie inside (a project root): opened component by component from
   * it without following a symlink. Without it the directory is opened as it is (MCA_HOME may be a link).
   */
  root?: string;
  /** Create missing directories between `root` and the file (Write into a new folder); default false. */
  createDirectories?: boolean;
  /** Permission bits of the file (default 0600: control files are private; with keepMode: of a new file, else 0666 less the umask). */
  mode?: number;
  /** An existing file keeps its permission bits (a project file a tool rewrites); default false (`mode` is set). */
  keepMode?: boolean;
  /**
   * Flush the file to the disk before the rename (default true). A cache whose reader checks what it reads (tool
   * memory's content hashes) may skip it: after a crash its file is then whole, missing or empty, never wrong.
   */
  durable?: boolean;
  /**
   * First remove the temp files of this name that dead writers left beside it (a project file: a kill -9 mid-write
   * must not leave litter in the user's tree even when the journal is off). Default false: a control file's
   * leftovers go with the start-up sweep of the temp journals, and a directory of many files (tool memory) is not
   * listed on every write.
   */
  sweepStaleTemps?: boolean;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function describe(error: unknown, path: string): AtomicWriteError {
  if (error instanceof AtomicWriteError) return error;
  if (error instanceof PathSwapError)
    return new AtomicWriteError('ACCESS_DENIED', `cannot write ${path}: ${error.message}`);
  const code = errnoOf(error);
  if (code === 'EACCES' || code === 'EPERM') {
    return new AtomicWriteError('ACCESS_DENIED', `cannot write ${path}: permission denied (${code})`, code);
  }
  if (code === 'EROFS')
    return new AtomicWriteError('ACCESS_DENIED', `cannot write ${path}: read-only file system`, code);
  if (code === 'ELOOP' || code === 'ENOTDIR') {
    return new AtomicWriteError(
      'ACCESS_DENIED',
      `cannot write ${path}: a symlink or not a directory on the way (${code})`,
      code,
    );
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new AtomicWriteError('EXECUTION_ERROR', `cannot write ${path}: no space left on the device (${code})`, code);
  }
  return new AtomicWriteError('EXECUTION_ERROR', `cannot write ${path}: ${code ?? (error as Error).message}`, code);
}

/** The directory without a root: opened as it is, used through its descriptor where /proc is there. */
function openDirectory(dir: string): PinnedDirectory {
  const fd = openSync(dir, DIR_FLAGS);
  const viaFd = descriptorPath(fd) !== undefined;
  let open = true;
  return {
    entry: (name) => (viaFd ? `/proc/self/fd/${fd}/${name}` : join(dir, name)),
    stillInside: () => true,
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/**
 * Ensures `root/relative` (one or more components) is a real directory inside `root`, creating what is missing
 * with `mode`. A component that is a symlink, or not a directory, is refused. Returns the directory's path.
 */
export function controlDirectory(root: string, relative: string, mode = 0o755): string {
  let current = root;
  for (const part of relative.split('/').filter((piece) => piece !== '' && piece !== '.')) {
    if (part === '..') throw new AtomicWriteError('ACCESS_DENIED', `${join(root, relative)} climbs out of ${root}`);
    current = join(current, part);
    let info = lstatSync(current, { throwIfNoEntry: false });
    if (info === undefined) {
      try {
        mkdirSync(current, { mode });
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') throw describe(error, current);
      }
      info = lstatSync(current, { throwIfNoEntry: false });
    }
    if (info?.isSymbolicLink()) {
      throw new AtomicWriteError(
        'ACCESS_DENIED',
        `${current} is a symlink; mca writes its control files only into a real directory inside ${root}`,
      );
    }
    if (!info?.isDirectory()) throw new AtomicWriteError('ACCESS_DENIED', `${current} is not a directory`);
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

/** Replaces `path` with `text` atomically. Throws AtomicWriteError naming the path and the cause; no temp is left. */
export function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): void {
  const name = basename(path);
  let dir: PinnedDirectory;
  try {
    dir =
      options.root === undefined
        ? openDirectory(dirname(path))
        : pinDirectory(options.root, dirname(path), options.createDirectories === true);
  } catch (error) {
    throw describe(error, path);
  }
  try {
    if (options.sweepStaleTemps === true) removeStaleTemps(dir.entry(''), name);
    // The bits to set on the temp file; undefined: a new project file gets 0666 less the umask, like any other.
    let mode = options.keepMode === true ? options.mode : (options.mode ?? 0o600);
    if (options.keepMode === true) {
      const info = lstatSync(dir.entry(name), { throwIfNoEntry: false });
      if (info !== undefined && !info.isFile()) throw new PathSwapError(`${path} is no longer a regular file`);
      if (info !== undefined) mode = info.mode & 0o7777;
    }
    const tempName = tempNameFor(name, randomBytes(6).toString('hex'));
    const temp = dir.entry(tempName);
    // Listed before it exists, so a kill at any later moment leaves a temp file the next start can find.
    journalTemp(join(dirname(path), tempName));
    const fd = openSync(temp, CREATE_FLAGS, mode ?? 0o666);
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      writeAll(fd, text);
      if (options.durable !== false) fsyncSync(fd);
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
        `its directory was moved outside ${options.root ?? 'its root'} during the write; the file was removed`,
      );
    }
  } catch (error) {
    throw describe(error, path);
  } finally {
    dir.close();
  }
}
