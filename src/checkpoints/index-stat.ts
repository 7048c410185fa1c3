/**
 * Which tracked files git's own index already vouches for, so the first scan of a session need not hash them
 * (`git hash-object` of every tracked file was most of that scan's time). A file is vouched for when all hold:
 * - its lstat equals the stat git cached for it in the index (`git ls-files --stage --debug`: mtime and ctime to
 *   the microsecond, inode, size; flags 0, so no assume-unchanged or skip-worktree entry);
 * - its mtime is more than RACY_MS before the index file's (git's racy-clean rule, with a margin for file
 *   systems with coarse timestamps): a later rewrite would carry a later mtime;
 * - no conversion between the bytes on disk and the blob can apply to it: `core.autocrlf` is off, and no
 *   attributes source sets text, eol, crlf, ident, filter or working-tree-encoding for it (`git check-attr`,
 *   asked only when an attributes file exists).
 * Then its bytes on disk are its index blob. Everything else is hashed as before (git-files.ts cleanTracked).
 * Read-only, like every git run of the scan (git-run.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sessionEnvironment } from '../config/child-environment.js';
import { isInside } from '../fs/contained-path.js';
import { runGit } from './git-run.js';
import { gitWhere, type GitWhere } from './git-where.js';
import { readIndexFile, type IndexEntry, type IndexFile } from './index-file.js';

/** A file's mtime must be this much older than the index's for the index to vouch for it (see the contract). */
const INDEX_RACY_MS = 2000;
const MAX_DEBUG_BYTES = 256 * 1024 * 1024;
const ENTRY =
  /([0-7]{6}) ([0-9a-f]{40,64}) ([0-3])\t([^\0]*)\0 {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: \d+\tino: (\d+)\n {2}uid: \d+\tgid: \d+\n {2}size: (\d+)\tflags: ([0-9a-f]+)\n/g;
const CONVERTING = ['text', 'eol', 'crlf', 'ident', 'filter', 'working-tree-encoding'];

export type { IndexEntry };

export interface IndexView {
  /** Tracked path (stage 0, not a submodule) → its blob and cached stat. */
  entries: Map<string, IndexEntry>;
  /** The index file's mtime (ms) read before the entries: nothing newer is vouched for. */
  indexMtimeMs: number;
  /** The repository's top, and its info/attributes file (absolute). */
  top: string;
  infoAttributes: string;
  /** `core.autocrlf` and `core.attributesFile` as configured ("" when unset). */
  autocrlf: string;
  attributesFile: string;
}

/**
 * The index's entries with their cached stat, or undefined when git cannot say. `where`: the shared rev-parse
 * (git-where.ts), when the caller already started it. The index file is read directly (index-file.ts); a format it
 * does not handle (split or sparse index, another version) is listed by `git ls-files --stage --debug` instead.
 */
export async function readIndexView(
  projectRoot: string,
  deadlineMs: number,
  signal: AbortSignal,
  where: Promise<GitWhere> = gitWhere(projectRoot, deadlineMs, signal),
): Promise<IndexView | undefined> {
  const options = { cwd: projectRoot, maxBytes: 64 * 1024, deadlineMs, signal };
  const [place, config] = await Promise.all([
    where,
    runGit(['config', '-z', '--get-regexp', '^(core\\.(autocrlf|attributesfile)|extensions\\.objectformat)$'], {
      ...options,
      okCodes: [0, 1],
    }),
  ]);
  if (!place.ok || !config.ok) return undefined;
  // -z --get-regexp: "key\nvalue" NUL per setting.
  const settings = new Map(
    config.stdout
      .toString('utf8')
      .split('\0')
      .map((line): [string, string] => {
        const at = line.indexOf('\n');
        return at === -1 ? [line.toLowerCase(), 'true'] : [line.slice(0, at).toLowerCase(), line.slice(at + 1)];
      }),
  );
  const format = (settings.get('extensions.objectformat') ?? 'sha1').trim().toLowerCase();
  const file =
    format === 'sha1' || format === 'sha256'
      ? readIndexFile(place.index, place.prefix, format === 'sha1' ? 20 : 32)
      : undefined;
  const read = file ?? (await listIndex(projectRoot, place.index, deadlineMs, signal));
  if (!read) return undefined;
  return {
    entries: read.entries,
    indexMtimeMs: read.mtimeMs,
    top: place.top,
    infoAttributes: place.infoAttributes,
    autocrlf: (settings.get('core.autocrlf') ?? '').trim().toLowerCase(),
    attributesFile: settings.get('core.attributesfile') ?? '',
  };
}

/** The index's entries as `git ls-files --stage --debug` lists them (any format git reads). */
async function listIndex(
  projectRoot: string,
  index: string,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<IndexFile | undefined> {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(index).mtimeMs;
  } catch {
    return undefined;
  }
  const listed = await runGit(['ls-files', '-z', '--stage', '--debug'], {
    cwd: projectRoot,
    maxBytes: MAX_DEBUG_BYTES,
    deadlineMs,
    signal,
  });
  if (!listed.ok) return undefined;
  const entries = new Map<string, IndexEntry>();
  const conflicted = new Set<string>();
  for (const match of listed.stdout.toString('utf8').matchAll(ENTRY)) {
    const [, mode, blob = '', stage, path = '', cs, cns, ms, mns, ino, size, flags] = match;
    if (stage !== '0') conflicted.add(path);
    else if (mode !== '160000' && flags === '0') {
      entries.set(path, {
        blob,
        ctimeS: Number(cs),
        ctimeNs: Number(cns),
        mtimeS: Number(ms),
        mtimeNs: Number(mns),
        ino: Number(ino),
        size: Number(size),
      });
    }
  }
  for (const path of conflicted) entries.delete(path);
  return { entries, mtimeMs };
}

/** A time in ms (as lstat gives it) against git's seconds and nanoseconds, to the microsecond. */
function sameTime(ms: number, seconds: number, nanoseconds: number): boolean {
  return Math.floor(ms / 1000) === seconds && Math.abs((ms - seconds * 1000) * 1e6 - nanoseconds) < 1000;
}

/** True when `stat` (the file's lstat now) is the index's cached stat and old enough to be vouched for. */
export function indexVouches(
  entry: IndexEntry,
  stat: { size: number; mtimeMs: number; ctimeMs: number; ino: number },
  indexMtimeMs: number,
): boolean {
  return (
    stat.mtimeMs < indexMtimeMs - INDEX_RACY_MS &&
    stat.size % 2 ** 32 === entry.size &&
    stat.ino % 2 ** 32 === entry.ino &&
    sameTime(stat.mtimeMs, entry.mtimeS, entry.mtimeNs) &&
    sameTime(stat.ctimeMs, entry.ctimeS, entry.ctimeNs)
  );
}

/**
 * The paths among `paths` whose bytes git may convert on the way into a blob (all of them when core.autocrlf is
 * on); undefined when git cannot say (then none is vouched for).
 */
export async function convertedPaths(
  projectRoot: string,
  view: IndexView,
  paths: readonly string[],
  deadlineMs: number,
  signal: AbortSignal,
): Promise<Set<string> | undefined> {
  if (view.autocrlf !== '' && view.autocrlf !== 'false') return new Set(paths);
  if (!hasAttributes(projectRoot, view, paths)) return new Set();
  const asked = paths.filter((path) => !path.includes('\0'));
  const answer = await runGit(['check-attr', '-z', '--stdin', ...CONVERTING], {
    cwd: projectRoot,
    input: `${asked.join('\0')}\0`,
    maxBytes: MAX_DEBUG_BYTES,
    deadlineMs,
    signal,
  });
  if (!answer.ok) return undefined;
  // -z output: path NUL attribute NUL value NUL, for each path and attribute.
  const fields = answer.stdout.toString('utf8').split('\0');
  const converted = new Set<string>();
  for (let at = 0; at + 2 < fields.length; at += 3) {
    const value = fields[at + 2];
    if (value !== 'unspecified' && value !== 'unset') converted.add(fields[at] ?? '');
  }
  return converted;
}

/** Whether any attributes file could apply: one in the tree or above the project, the repository's, the user's. */
function hasAttributes(projectRoot: string, view: IndexView, paths: readonly string[]): boolean {
  if (paths.some((path) => path === '.gitattributes' || path.endsWith('/.gitattributes'))) return true;
  for (let dir = projectRoot; isInside(view.top, dir); dir = dirname(dir)) {
    if (existsSync(join(dir, '.gitattributes'))) return true;
    if (dir === view.top || dirname(dir) === dir) break;
  }
  if (existsSync(view.infoAttributes)) return true;
  const env = sessionEnvironment();
  const home = env.HOME ?? homedir();
  const file = view.attributesFile.trim().replace(/^~(?=\/)/, home);
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  return existsSync(file === '' ? join(xdg, 'git', 'attributes') : resolve(projectRoot, file));
}
