/**
 * The scan around a Bash call: every tracked and untracked, non-ignored regular file of the project, with the stat
 * that tells a change without reading the file. In a git work tree the list comes from git (git-files.ts: one
 * `ls-files` instead of a walk, then an lstat per file); elsewhere, or when git is missing or fails, from the
 * tools' own gitignore-aware walk in its worker thread with its deadline. How the "before" content is made cheap:
 * a file whose stat equals the previous scan's keeps that scan's state (no read); a tracked file whose bytes are
 * its index blob is recorded as a reference to that blob (git-blobs.ts: copied from git only if a command changes
 * it); any other file under the size cap is read once, hashed and stored (deduplicated by hash). So the first scan
 * of a session copies only modified and untracked files, and later ones only what changed since. Files over the
 * cap, and anything beyond the per-scan copy budget, are recorded as not restorable; a project with more files
 * than the limit is not tracked at all (said so at rewind time).
 */
import type { BlobStore } from './blob-store.js';
import { captureFileSync, sameStat, statKey, type StatKey } from './file-capture.js';
import { cleanTracked, indexBlobs, listGitFiles, statListed, type GitListingResult } from './git-files.js';
import { convertedPaths, indexVouches, readIndexView, type IndexView } from './index-stat.js';
import type { ScanState } from './git-blobs.js';
import { isInside } from '../fs/contained-path.js';
import { runInWorker } from '../tools/walking/walk-runner.js';
import type { WalkedFile } from '../tools/walking/walk-files.js';

export interface ImageEntry {
  stat: StatKey;
  state: ScanState;
}

/**
 * Path → what it held at the scan: project-relative for a file of the project, absolute for a file of an added
 * directory (the same keys the file tools journal).
 */
export type Image = Record<string, ImageEntry>;

/** Where one root's files go in an image (root-scan.ts scans several roots into one). */
export interface RootPlacement {
  /** Prepended to each root-relative path to make its image key: "" for the project, "<root>/" for an added one. */
  prefix: string;
  /** Files inside these directories are skipped (another root scans them: the project inside an added parent). */
  exclude?: readonly string[];
}

export interface ScanLimits {
  /** A file larger than this is not copied (not restorable if a command changes it). */
  maxFileBytes: number;
  /** A project with more files than this is not scanned. */
  maxFiles: number;
  /** Bytes one scan may copy into the store. */
  maxCopyBytes: number;
}

export type ScanResult =
  | {
      ok: true;
      image: Image;
      copiedBytes: number;
      /** The files came from git alone (no walk: no nested repository, submodule, or git missing). */
      plain: boolean;
    }
  | { ok: false; reason: string };

/** Files, and bytes, read between two yields of the event loop. */
const CHUNK_FILES = 200;
const CHUNK_BYTES = 8 * 1024 * 1024;
/**
 * A scan that takes longer than this is abandoned (the call is recorded as untracked): mca started in a home
 * directory must not make a Bash call wait for the walk of a million files.
 */
export const SCAN_DEADLINE_MS = 10_000;

async function walk(projectRoot: string, baseRel: string, signal: AbortSignal): Promise<WalkedFile[] | string> {
  const outcome = await runInWorker(
    { kind: 'glob', walk: { projectRoot, baseRel, patterns: ['**'], dot: true } },
    signal,
    SCAN_DEADLINE_MS,
  );
  if (outcome.kind !== 'done') {
    return outcome.kind === 'timeout'
      ? `the project scan took longer than ${outcome.afterMs} ms`
      : 'the project scan failed';
  }
  return outcome.result.kind === 'glob' ? outcome.result.files : 'the project scan failed';
}

/** The files to scan, and whether their list came from git (then tracked files may become references). */
async function candidates(
  projectRoot: string,
  limits: ScanLimits,
  signal: AbortSignal,
  listed?: Promise<GitListingResult>,
): Promise<{ files: WalkedFile[]; git: boolean; walked: boolean } | string> {
  const listing = await (listed ?? listGitFiles(projectRoot, SCAN_DEADLINE_MS, signal));
  if ('reason' in listing) {
    if (listing.final) return listing.reason; // stopped at the deadline or interrupted: the walk would be no faster
    const files = await walk(projectRoot, '.', signal);
    return typeof files === 'string' ? files : { files, git: false, walked: true };
  }
  if (listing.paths.length > limits.maxFiles) return tooMany(limits);
  const stated = await statListed(projectRoot, listing.paths, signal);
  if (!stated) return 'the project scan was interrupted';
  // A nested repository or a submodule: git lists none of its files, the walk does (copied like untracked ones).
  for (const dir of [...listing.nested, ...stated.dirs]) {
    const inner = await walk(projectRoot, dir, signal);
    if (typeof inner === 'string') return inner;
    stated.files.push(...inner);
  }
  return { files: stated.files, git: true, walked: listing.nested.length + stated.dirs.length > 0 };
}

/** The stat a walk or `statListed` gave `file` (a field it could not read counts as 0). */
function walkedStat(file: WalkedFile): StatKey {
  return statKey({
    size: file.size ?? 0,
    mtimeMs: file.mtimeMs,
    ctimeMs: file.ctimeMs ?? 0,
    ino: file.ino ?? 0,
    mode: file.mode ?? 0,
  });
}

function tooMany(limits: ScanLimits): string {
  return `the project has more than ${limits.maxFiles} files`;
}

/**
 * Runs `work` over `items` synchronously in chunks of at most CHUNK_FILES files or CHUNK_BYTES bytes, yielding the
 * event loop between chunks (the UI keeps drawing, a signal can stop it). Synchronous calls cost a fraction of the
 * CPU of the thread-pool round trips and promises of asynchronous ones, per file (BENCHMARKS.md section 7).
 */
async function chunked<T extends { size?: number }>(
  items: readonly T[],
  work: (item: T) => void,
  signal: AbortSignal,
): Promise<boolean> {
  let files = 0;
  let bytes = 0;
  for (const item of items) {
    work(item);
    files += 1;
    bytes += item.size ?? 0;
    if (files >= CHUNK_FILES || bytes >= CHUNK_BYTES) {
      files = 0;
      bytes = 0;
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) return false;
    }
  }
  return true;
}

/** Scans the project, reusing `previous` for files whose stat did not change. Store failures throw. */
export async function scanProject(
  projectRoot: string,
  previous: Image,
  blobs: BlobStore,
  limits: ScanLimits,
  signal: AbortSignal,
  placement: RootPlacement = { prefix: '' },
  /**
   * A file whose stat equals `previous` but whose mtime is at or after this (ms) is read again: a same-size
   * rewrite in the timestamp tick of the scan that recorded it leaves the stat as it was (git's racy-clean rule).
   */
  racyFrom = Infinity,
  /** git's index, already being read by the caller (see below). */
  indexRead?: Promise<IndexView | undefined>,
  /** git's listing of the candidate files, already started by the caller. */
  listed?: Promise<GitListingResult>,
): Promise<ScanResult> {
  // git's index is read while the files are listed and stat'ed (it is needed only in a git work tree, and then
  // always: no previous scan, or files whose stat changed since it).
  const indexView =
    indexRead ??
    (Object.keys(previous).length === 0 ? readIndexView(projectRoot, SCAN_DEADLINE_MS, signal) : undefined);
  const found = await candidates(projectRoot, limits, signal, listed);
  if (typeof found === 'string') return { ok: false, reason: found };
  const { prefix, exclude = [] } = placement;
  const files =
    exclude.length === 0
      ? found.files
      : found.files.filter((file) => !exclude.some((dir) => isInside(dir, file.absolute)));
  if (files.length > limits.maxFiles) return { ok: false, reason: tooMany(limits) };
  const image: Image = {};
  const unread: WalkedFile[] = [];
  for (const file of files) {
    if (file.size === undefined || file.ctimeMs === undefined || file.ino === undefined || file.mode === undefined) {
      unread.push(file);
      continue;
    }
    const stat = walkedStat(file);
    const known = previous[prefix + file.relative];
    if (
      known &&
      sameStat(known.stat, stat) &&
      known.state.kind !== 'absent' &&
      known.state.kind !== 'unrestorable' &&
      known.stat.mtimeMs < racyFrom
    )
      image[prefix + file.relative] = known;
    else if (stat.size > limits.maxFileBytes) {
      image[prefix + file.relative] = {
        stat,
        state: { kind: 'unrestorable', reason: `larger than the ${limits.maxFileBytes}-byte checkpoint limit` },
      };
    } else unread.push(file);
  }
  const toRead =
    found.git && unread.length > 0 ? await referTracked(projectRoot, prefix, unread, image, signal, indexView) : unread;
  if (signal.aborted) return { ok: false, reason: 'the project scan was interrupted' };
  let copiedBytes = 0;
  const done = await chunked(
    toRead,
    (file) => {
      if (copiedBytes + (file.size ?? 0) > limits.maxCopyBytes) {
        image[prefix + file.relative] = {
          stat: walkedStat(file),
          state: { kind: 'unrestorable', reason: `over the ${limits.maxCopyBytes}-byte copy budget of one scan` },
        };
        return;
      }
      copiedBytes += file.size ?? 0;
      const captured = captureFileSync(file.absolute, blobs, limits.maxFileBytes);
      if (captured.state.kind === 'absent') return; // deleted during the scan: it is not there before the call
      image[prefix + file.relative] = {
        stat: captured.stat ?? walkedStat(file),
        state: captured.state,
      };
    },
    signal,
  );
  // What was copied before an interruption is made durable too (the store holds no blob it cannot trust).
  await blobs.flush();
  if (!done) return { ok: false, reason: 'the project scan was interrupted' };
  return { ok: true, image, copiedBytes, plain: found.git && !found.walked };
}

/**
 * Records the tracked files among `unread` whose bytes are their index blob as references into `image`; answers
 * the rest (to be copied).
 */
async function referTracked(
  projectRoot: string,
  prefix: string,
  unread: WalkedFile[],
  image: Image,
  signal: AbortSignal,
  indexView?: Promise<IndexView | undefined>,
): Promise<WalkedFile[]> {
  // Tracked files git's index vouches for (index-stat.ts) are referred to without hashing them.
  const view = await (indexView ?? readIndexView(projectRoot, SCAN_DEADLINE_MS, signal));
  const refer = (file: WalkedFile, blob: string): void => {
    const stat = walkedStat(file);
    // A reference of an added directory names the root its repository is read from (git-blobs.ts).
    const root = prefix === '' ? {} : { root: projectRoot };
    image[prefix + file.relative] = {
      stat,
      state: { kind: 'git', blob, mode: stat.mode & 0o7777, size: stat.size, ...root },
    };
  };
  let rest = unread;
  if (view) {
    const vouched = rest.filter((file) => {
      const entry = view.entries.get(file.relative);
      return entry !== undefined && file.size !== undefined && indexVouches(entry, walkedStat(file), view.indexMtimeMs);
    });
    const converted =
      vouched.length === 0
        ? undefined
        : await convertedPaths(
            projectRoot,
            view,
            vouched.map((file) => file.relative),
            SCAN_DEADLINE_MS,
            signal,
          );
    if (converted) {
      const referred = new Set<WalkedFile>();
      for (const file of vouched) {
        const entry = view.entries.get(file.relative);
        if (entry === undefined || converted.has(file.relative)) continue;
        refer(file, entry.blob);
        referred.add(file);
      }
      rest = rest.filter((file) => !referred.has(file));
    }
  }
  const blobs = view ? undefined : await indexBlobs(projectRoot, SCAN_DEADLINE_MS, signal);
  const tracked = rest.flatMap((file) => {
    const blob = blobs ? blobs.get(file.relative) : view?.entries.get(file.relative)?.blob;
    return blob !== undefined && file.size !== undefined ? [{ path: file.relative, blob }] : [];
  });
  if (tracked.length === 0) return rest;
  const clean = await cleanTracked(projectRoot, tracked, SCAN_DEADLINE_MS, signal);
  return rest.filter((file) => {
    const blob = clean.get(file.relative);
    if (blob === undefined || file.size === undefined) return true;
    refer(file, blob);
    return false;
  });
}

/** The same content by what the states say (a racy file read again has the same stat and maybe new bytes). */
function sameState(a: ScanState, b: ScanState): boolean {
  if (a === b) return true;
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash && a.mode === b.mode;
  if (a.kind === 'git' && b.kind === 'git') return a.blob === b.blob && a.mode === b.mode;
  return a.kind === b.kind && a.kind !== 'file' && a.kind !== 'git'; // absent, not restorable: the stat tells
}

/** What changed between two scans: each path with its state before (the after state is in `after`). */
export function changedPaths(before: Image, after: Image): string[] {
  if (before === after) return [];
  const changed: string[] = [];
  for (const [path, entry] of Object.entries(before)) {
    const now = after[path];
    if (!now || !sameStat(entry.stat, now.stat) || !sameState(entry.state, now.state)) changed.push(path);
  }
  for (const path of Object.keys(after)) if (!(path in before)) changed.push(path);
  return changed;
}
