/**
 * A directory opened once and then used by descriptor, so a path component swapped for a symlink after the
 * workspace check cannot redirect a write (no check-then-use race). On Linux every name is resolved through
 * `/proc/self/fd/<dir>/<name>`: the kernel starts from the directory already opened, and O_NOFOLLOW refuses a
 * symlink in the last place. Each component from the project root down is opened this way, so no symlink can
 * appear anywhere on the path. Where /proc is missing, plain paths are used and the caller's checks after the
 * fact are the guard.
 */
import { closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { descriptorInside } from './contained-path.js';
import { McaError } from '../errors/mca-error.js';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const HAS_PROC_FD = existsSync('/proc/self/fd');

/** Creates a missing component and opens it; anything appearing or vanishing meanwhile is a swap. */
function makeAndOpen(path: string, directory: string): number {
  try {
    mkdirSync(path);
    return openSync(path, DIR_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EEXIST' || code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') {
      throw new PathSwapError(`${directory} changed while it was being created (a component appeared or vanished)`);
    }
    throw error;
  }
}

export class PathSwapError extends McaError {
  readonly code = 'ACCESS_DENIED' as const;
}

export interface PinnedDirectory {
  /** The path to use for `name` inside the pinned directory. */
  entry(name: string): string;
  /** True while the directory is still inside `root` (it may have been moved since it was opened). */
  stillInside(): boolean;
  close(): void;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Opens `directory` (absolute, symlink-free, inside `root`) one component at a time from `root`, creating
 * missing components when `create`. Throws PathSwapError when a component is (now) a symlink or not a directory.
 */
export function pinDirectory(root: string, directory: string, create: boolean): PinnedDirectory {
  if (!HAS_PROC_FD) {
    if (create) mkdirSync(directory, { recursive: true });
    return { entry: (name) => join(directory, name), stillInside: () => true, close: () => undefined };
  }
  const parts = relative(root, directory)
    .split(sep)
    .filter((part) => part !== '' && part !== '.');
  let fd = openSync(root, DIR_FLAGS);
  try {
    for (const part of parts) {
      const next = `/proc/self/fd/${fd}/${part}`;
      let child: number;
      try {
        child = openSync(next, DIR_FLAGS);
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'ENOENT' && create) {
          child = makeAndOpen(next, directory);
        } else if (code === 'ELOOP' || code === 'ENOTDIR') {
          throw new PathSwapError(`${directory} changed while it was being opened (a component became a symlink)`);
        } else {
          throw error;
        }
      }
      closeSync(fd);
      fd = child;
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const pinned = fd;
  let open = true;
  return {
    entry: (name) => `/proc/self/fd/${pinned}/${name}`,
    stillInside: () => descriptorInside(pinned, root),
    close: () => {
      if (open) closeSync(pinned);
      open = false;
    },
  };
}

/**
 * Opens an existing file for reading without following a symlink in its last component, then confirms what the
 * descriptor really opened is inside `root`. Throws PathSwapError when it is not (a component was swapped
 * after the workspace check); other errors (ENOENT, EACCES) pass through.
 */
export async function openFileInside(root: string, absolutePath: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') throw new PathSwapError(`${absolutePath} became a symlink after it was checked`);
    throw error;
  }
  if (!descriptorInside(handle.fd, root)) {
    await handle.close();
    throw new PathSwapError(`${absolutePath} resolved outside the project when opened (a directory was swapped)`);
  }
  return handle;
}
