/**
 * The walker of a Glob that runs on the main thread (walk-inline.ts): for a simple pattern (isSimpleGlob) it yields
 * the very files walkProjectFiles yields through fast-glob (test/tools/walk-inline.test.ts compares the two on the
 * same trees), without loading fast-glob and micromatch (~120 kB; ~8 ms of CPU and more under load on first use).
 *
 * What it keeps of walkProjectFiles: only regular files are listed and only real directories entered (a symlink is
 * never followed); a directory whose real path is outside the project is not read; `.git`, the extra excluded names
 * and the root .gitignore's plain names (the prune hints) exclude an entry of that name at any depth, as fast-glob's
 * `**\/name/**` ignore patterns do; every listed file passes the .gitignore rules. A directory those rules ignore is
 * not entered: every file below it would be ignored anyway (GitignoreRules.ignores checks the ancestors).
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../../fs/contained-path.js';
import { GitignoreRules } from './gitignore.js';
import { pruneNames, type WalkedFile } from './walk-files.js';

export interface SimpleWalk {
  projectRoot: string;
  /** Project-relative directory to walk ("." for the root). */
  baseRel: string;
  /** A simple glob (isSimpleGlob), relative to the base; `*` matches dotfiles too (fast-glob's `dot: true`). */
  pattern: string;
  /** Names excluded at any depth besides `.git` (node_modules). */
  excludeNames: readonly string[];
  signal: AbortSignal;
}

/** One pattern segment: `**` (any number of path segments), or a test of one name. */
type Segment = 'globstar' | RegExp;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A simple segment as an anchored expression: `*` → any run of characters, `?` → one, `{a,b}` → a or b. */
function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] ?? '';
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '{') {
      const close = segment.indexOf('}', index);
      source += `(?:${segment
        .slice(index + 1, close)
        .split(',')
        .map(escapeRegex)
        .join('|')})`;
      index = close;
    } else source += escapeRegex(char);
  }
  return new RegExp(`^${source}$`, 's');
}

export function compileSimpleGlob(pattern: string): Segment[] {
  return pattern.split('/').map((segment) => (segment === '**' ? 'globstar' : segmentRegex(segment)));
}

/** Whether the path `parts[i..]` matches `segments[j..]`. */
function matches(parts: readonly string[], segments: readonly Segment[], i = 0, j = 0): boolean {
  for (; j < segments.length; i += 1, j += 1) {
    const segment = segments[j];
    if (segment === 'globstar') {
      for (let skip = i; skip <= parts.length; skip += 1) if (matches(parts, segments, skip, j + 1)) return true;
      return false;
    }
    if (i >= parts.length || segment === undefined || !segment.test(parts[i] ?? '')) return false;
  }
  return i === parts.length;
}

/** Whether some file below the directory `parts` can match: the directory is worth reading. */
function mayHoldMatches(parts: readonly string[], segments: readonly Segment[]): boolean {
  for (let i = 0; i < parts.length; i += 1) {
    const segment = segments[i];
    if (segment === undefined) return false;
    if (segment === 'globstar') return true;
    if (!segment.test(parts[i] ?? '')) return false;
  }
  return segments.length > parts.length;
}

/** The files below the base matching the pattern; stops early when `signal` aborts. */
export async function* walkSimple(options: SimpleWalk): AsyncGenerator<WalkedFile> {
  const rules = await GitignoreRules.forBase(options.projectRoot, options.baseRel);
  const base = options.baseRel === '.' ? '' : options.baseRel;
  const excluded = new Set(['.git', ...options.excludeNames]);
  if (!rules.baseIgnored) for (const name of await pruneNames(options.projectRoot)) excluded.add(name);
  const segments = compileSimpleGlob(options.pattern);
  const rootReal = await realpath(options.projectRoot);
  const projectRel = (parts: readonly string[]): string => [...(base === '' ? [] : [base]), ...parts].join('/');
  const pending: Array<{ absolute: string; parts: string[] }> = [
    { absolute: join(options.projectRoot, base), parts: [] },
  ];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    if (options.signal.aborted) return;
    let real: string;
    let entries;
    try {
      real = await realpath(dir.absolute);
      if (!isInside(rootReal, real)) continue;
      entries = await readdir(dir.absolute, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable: skipped, as fast-glob's suppressErrors does
    }
    for (const entry of entries) {
      if (options.signal.aborted) return;
      if (excluded.has(entry.name)) continue;
      const parts = [...dir.parts, entry.name];
      const absolute = join(dir.absolute, entry.name);
      if (entry.isDirectory()) {
        if (mayHoldMatches(parts, segments) && !(await rules.ignores(projectRel(parts), true)))
          pending.push({ absolute, parts });
        continue;
      }
      if (!entry.isFile() || !matches(parts, segments)) continue;
      const relative = projectRel(parts);
      if (!isInside(rootReal, join(real, entry.name)) || (await rules.ignores(relative, false))) continue;
      try {
        const stats = await lstat(absolute);
        if (stats.isFile()) yield { relative, absolute, mtimeMs: stats.mtimeMs };
      } catch {
        // vanished since the directory was read
      }
    }
  }
}
