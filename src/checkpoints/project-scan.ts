/**
 * The scan around a Bash call: every tracked and untracked, non-ignored regular file of the project (the tools'
 * own gitignore-aware walk, in its worker thread with its deadline), with the stat that tells a change without
 * reading the file. How the "before" content is made cheap: a file whose stat equals the previous scan's keeps
 * that scan's content hash (no read); any other file under the size cap is read once, hashed and stored
 * (deduplicated by hash), so only the first scan of a session copies the project and later ones copy only what
 * changed since. Files over the cap, and anything beyond the per-scan copy budget, are recorded as not
 * restorable; a project with more files than the limit is not tracked at all (said so at rewind time).
 */
import type { BlobStore } from './blob-store.js';
import { captureFile, sameStat, statKey, type StatKey } from './file-capture.js';
import type { FileState } from './journal.js';
import { runInWorker } from '../tools/walk-runner.js';
import type { WalkedFile } from '../tools/walk-files.js';

export interface ImageEntry {
  stat: StatKey;
  state: FileState;
}

/** Project-relative path → what it held at the scan. */
export type Image = Record<string, ImageEntry>;

export interface ScanLimits {
  /** A file larger than this is not copied (not restorable if a command changes it). */
  maxFileBytes: number;
  /** A project with more files than this is not scanned. */
  maxFiles: number;
  /** Bytes one scan may copy into the store. */
  maxCopyBytes: number;
}

export type ScanResult = { ok: true; image: Image; copiedBytes: number } | { ok: false; reason: string };

const CONCURRENCY = 16;
/**
 * A scan that takes longer than this is abandoned (the call is recorded as untracked): mca started in a home
 * directory must not make a Bash call wait for the walk of a million files.
 */
export const SCAN_DEADLINE_MS = 10_000;

async function walk(projectRoot: string, signal: AbortSignal): Promise<WalkedFile[] | string> {
  const outcome = await runInWorker(
    { kind: 'glob', walk: { projectRoot, baseRel: '.', patterns: ['**'], dot: true } },
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

async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(runners);
}

/** Scans the project, reusing `previous` for files whose stat did not change. Store failures throw. */
export async function scanProject(
  projectRoot: string,
  previous: Image,
  blobs: BlobStore,
  limits: ScanLimits,
  signal: AbortSignal,
): Promise<ScanResult> {
  const files = await walk(projectRoot, signal);
  if (typeof files === 'string') return { ok: false, reason: files };
  if (files.length > limits.maxFiles) {
    return { ok: false, reason: `the project has more than ${limits.maxFiles} files` };
  }
  const image: Image = {};
  const toRead: WalkedFile[] = [];
  for (const file of files) {
    if (file.size === undefined || file.ctimeMs === undefined || file.ino === undefined || file.mode === undefined) {
      toRead.push(file);
      continue;
    }
    const stat = statKey({
      size: file.size,
      mtimeMs: file.mtimeMs,
      ctimeMs: file.ctimeMs,
      ino: file.ino,
      mode: file.mode,
    });
    const known = previous[file.relative];
    if (known && sameStat(known.stat, stat) && known.state.kind === 'file') image[file.relative] = known;
    else if (stat.size > limits.maxFileBytes) {
      image[file.relative] = {
        stat,
        state: { kind: 'unrestorable', reason: `larger than the ${limits.maxFileBytes}-byte checkpoint limit` },
      };
    } else toRead.push(file);
  }
  let copiedBytes = 0;
  await pool(toRead, async (file) => {
    if (copiedBytes + (file.size ?? 0) > limits.maxCopyBytes) {
      image[file.relative] = {
        stat: statKey({
          size: file.size ?? 0,
          mtimeMs: file.mtimeMs,
          ctimeMs: file.ctimeMs ?? 0,
          ino: file.ino ?? 0,
          mode: file.mode ?? 0,
        }),
        state: { kind: 'unrestorable', reason: `over the ${limits.maxCopyBytes}-byte copy budget of one scan` },
      };
      return;
    }
    copiedBytes += file.size ?? 0;
    const captured = await captureFile(file.absolute, blobs, limits.maxFileBytes, true);
    if (captured.state.kind === 'absent') return; // deleted during the scan: it is not there before the call
    image[file.relative] = {
      stat:
        captured.stat ??
        statKey({
          size: file.size ?? 0,
          mtimeMs: file.mtimeMs,
          ctimeMs: file.ctimeMs ?? 0,
          ino: file.ino ?? 0,
          mode: file.mode ?? 0,
        }),
      state: captured.state,
    };
  });
  await blobs.flush();
  return { ok: true, image, copiedBytes };
}

/** What changed between two scans: each path with its state before (the after state is in `after`). */
export function changedPaths(before: Image, after: Image): string[] {
  const changed: string[] = [];
  for (const [path, entry] of Object.entries(before)) {
    const now = after[path];
    if (!now || !sameStat(entry.stat, now.stat)) changed.push(path);
  }
  for (const path of Object.keys(after)) if (!(path in before)) changed.push(path);
  return changed;
}
