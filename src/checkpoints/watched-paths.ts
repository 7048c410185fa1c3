/** Small path and content checks of the watched scan (watched-scan.ts). */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, statfsSync, type Stats } from 'node:fs';
import { gitBlobId, type ScanState } from './git-blobs.js';
import { runGit } from './git-run.js';
import { SCAN_DEADLINE_MS } from './project-scan.js';

/** statfs magic numbers of local file systems, where every write on this machine reaches inotify. */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0x794c7630, // overlayfs
]);

/** True on a local file system (where every write on this machine reaches inotify), else why not. */
export function onLocalFileSystem(root: string): true | string {
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(root).type) ? true : 'not a local file system';
  } catch {
    return 'statfs failed';
  }
}

/** The directories and files among `paths` (relative to `root`) git does not ignore; undefined when git cannot say. */
export async function notIgnoredBy(
  root: string,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<string[] | undefined> {
  if (paths.length === 0) return [];
  const answer = await runGit(['check-ignore', '-z', '--stdin'], {
    cwd: root,
    input: `${paths.join('\0')}\0`,
    maxBytes: 64 * 1024 * 1024,
    deadlineMs: SCAN_DEADLINE_MS,
    signal,
    okCodes: [0, 1],
  });
  if (!answer.ok) return undefined;
  const ignored = new Set(answer.stdout.toString('utf8').split('\0'));
  return paths.filter((path) => !ignored.has(path));
}

/** lstat without following the last component; undefined when absent or a parent is no directory. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR: a parent became a file
  }
}

export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash === -1 ? '' : rel.slice(0, slash);
}

/** True when the file's bytes are still those `state` holds (a racy file's check). */
export function stillSame(absolute: string, state: ScanState): boolean {
  if (state.kind !== 'file' && state.kind !== 'git') return false;
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch {
    return false;
  }
  if (state.kind === 'git') return gitBlobId(bytes, state.blob.length) === state.blob;
  return createHash('sha256').update(bytes).digest('hex') === state.hash;
}
