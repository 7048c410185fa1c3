/**
 * The scan's view of a git work tree, read from git instead of walked in JS: the candidate files (tracked, plus
 * untracked ones no ignore rule covers: `git ls-files`, one fast process), each tracked file's index blob id, and
 * which files hold exactly their index blob's bytes (`git hash-object --no-filters`, which hashes the bytes on disk
 * as they are, so a file that CRLF conversion, a clean filter or LFS changes on the way into git never matches:
 * such a file is copied like an untracked one). A file that matches can be restored later from git's object store
 * (`git cat-file`), so the scan stores a reference instead of a copy. Everything here reads; see git-run.ts.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isInside } from '../fs/contained-path.js';
import { runGit } from './git-run.js';
import type { WalkedFile } from '../tools/walking/walk-files.js';

export interface GitListing {
  /** Every candidate path, project-relative ("/" separated), each once. */
  paths: string[];
  /** Directories git does not look into (a nested repository): walked separately. */
  nested: string[];
}

/** What `listGitFiles` answers. */
export type GitListingResult = GitListing | { reason: string; final?: boolean };

/** The bytes ls-files may answer with (a path list of 50,000 files is a few MB). */
const MAX_LIST_BYTES = 64 * 1024 * 1024;
const STAGED = /^([0-7]{6}) ([0-9a-f]{40,64}) ([0-3])\t/;
/** lstat calls between two yields of the event loop. */
const STAT_CHUNK = 2000;

/**
 * The project's candidate files per git (one process: tracked, and untracked that no ignore rule covers), or the
 * reason git cannot say (no repository, no git, too slow).
 */
export async function listGitFiles(
  projectRoot: string,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<GitListingResult> {
  const listed = await runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    maxBytes: MAX_LIST_BYTES,
    deadlineMs,
    signal,
  });
  if (!listed.ok) return listed;
  const seen = new Set<string>();
  const listing: GitListing = { paths: [], nested: [] };
  for (const path of listed.stdout.toString('utf8').split('\0')) {
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    if (path.endsWith('/')) listing.nested.push(path.slice(0, -1));
    else listing.paths.push(path);
  }
  return listing;
}

/**
 * Tracked path → its index blob id (`git ls-files --stage`; stage 0 only: a path in a merge conflict has no single
 * blob, a submodule none at all). Empty when git cannot say.
 */
export async function indexBlobs(
  projectRoot: string,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  const staged = await runGit(['ls-files', '-z', '--stage'], {
    cwd: projectRoot,
    maxBytes: MAX_LIST_BYTES,
    deadlineMs,
    signal,
  });
  if (!staged.ok) return blobs;
  const conflicted = new Set<string>();
  for (const entry of staged.stdout.toString('utf8').split('\0')) {
    const match = STAGED.exec(entry);
    if (!match) continue;
    const path = entry.slice(match[0].length);
    if (match[3] !== '0') conflicted.add(path);
    else if (match[1] !== '160000' && match[2] !== undefined) blobs.set(path, match[2]);
  }
  for (const path of conflicted) blobs.delete(path);
  return blobs;
}

async function yieldLoop(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * lstat of each listed path, in chunks (the event loop stays free), keeping regular files whose directory's real
 * path is inside the project (a directory swapped for a symlink out of it is skipped, like the walk does); listed
 * paths that are directories (submodules) are answered apart.
 */
export async function statListed(
  projectRoot: string,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<{ files: WalkedFile[]; dirs: string[] } | undefined> {
  const files: WalkedFile[] = [];
  const listedDirs: string[] = [];
  const rootReal = realpathSync.native(projectRoot);
  const prefix = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  // Directory (project-relative) → inside the project by its real path; "" is the root itself.
  const dirs = new Map<string, boolean>([['', true]]);
  for (let index = 0; index < paths.length; index += 1) {
    if (index % STAT_CHUNK === 0 && index > 0) {
      await yieldLoop();
      if (signal.aborted) return undefined;
    }
    const relative = paths[index] ?? '';
    // git's paths are normalised ("a/b", never "./" or ".."): plain concatenation is the join.
    const absolute = prefix + relative;
    const info = lstatSync(absolute, { throwIfNoEntry: false });
    if (info?.isDirectory()) listedDirs.push(relative); // a submodule
    if (!info?.isFile()) continue;
    const dir = relative.slice(0, Math.max(0, relative.lastIndexOf('/')));
    let inside = dirs.get(dir);
    if (inside === undefined) {
      try {
        inside = isInside(rootReal, realpathSync.native(prefix + dir));
      } catch {
        inside = false;
      }
      dirs.set(dir, inside);
    }
    if (!inside) continue;
    files.push({
      relative,
      absolute,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      mode: info.mode,
    });
  }
  return signal.aborted ? undefined : { files, dirs: listedDirs };
}

/**
 * The tracked files among `candidates` whose bytes on disk are exactly their index blob (path → blob id). One
 * `git hash-object --no-filters --stdin-paths`; when it fails (a file vanished meanwhile) none are claimed and the
 * caller copies them all. Paths with a newline cannot go through --stdin-paths and are never claimed.
 */
export async function cleanTracked(
  projectRoot: string,
  candidates: ReadonlyArray<{ path: string; blob: string }>,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const clean = new Map<string, string>();
  const asked = candidates.filter((candidate) => !candidate.path.includes('\n'));
  if (asked.length === 0) return clean;
  const prefix = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  const hashed = await runGit(['hash-object', '--no-filters', '--stdin-paths'], {
    cwd: projectRoot,
    // Absolute: git reads --stdin-paths from the top of the work tree, not from a subdirectory the project may be.
    input: `${asked.map((candidate) => `${prefix}${candidate.path}`).join('\n')}\n`,
    maxBytes: asked.length * 65,
    deadlineMs,
    signal,
  });
  if (!hashed.ok) return clean;
  const ids = hashed.stdout.toString('utf8').split('\n');
  asked.forEach((candidate, index) => {
    if (ids[index] === candidate.blob) clean.set(candidate.path, candidate.blob);
  });
  return clean;
}
