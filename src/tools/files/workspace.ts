import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readBoundedFile } from '../../fs/bounded-read.js';
import { isInside } from '../../fs/contained-path.js';
import type { ToolError } from '../registry/envelope.js';
import { McaError } from '../../errors/mca-error.js';
import { expandHome } from './workspace-roots.js';

/**
 * A path the guard accepted. `relative` is what tools show and store: project-relative ("." for the root) for a
 * path in the project, the absolute path for one in an added directory. `root` is the real root the path lies in,
 * `rootRelative` the path below it ("/"-separated, "." for the root): walks and control-file checks use these.
 */
export type ResolvedPath =
  | { ok: true; absolute: string; relative: string; root: string; rootRelative: string }
  | { ok: false; error: ToolError };

/** Symlink hops allowed while resolving one path (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

class LinkLoopError extends McaError {
  readonly code = 'LINK_LOOP' as const;
}

/**
 * Real path of `target` even when it does not exist yet: the realpath of the deepest existing ancestor plus the
 * missing tail. Dangling symlinks are followed by hand so a write through one cannot land outside the project.
 */
function realPathOf(target: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw new LinkLoopError(target);
  try {
    return realpathSync(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new LinkLoopError(target);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  let isLink = false;
  try {
    isLink = lstatSync(target).isSymbolicLink();
  } catch {
    isLink = false;
  }
  if (isLink) {
    let link: string | undefined;
    try {
      link = readlinkSync(target);
    } catch {
      // Changed between lstat and readlink (someone is swapping it): resolve it again from the start, as a hop.
      return realPathOf(target, hops + 1);
    }
    return realPathOf(resolve(dirname(target), link), hops + 1);
  }
  const parent = dirname(target);
  if (parent === target) return target;
  return resolve(realPathOf(parent, hops), basename(target));
}

function denied(message: string): ResolvedPath {
  return { ok: false, error: { code: 'ACCESS_DENIED', message } };
}

function invalid(message: string): ResolvedPath {
  return { ok: false, error: { code: 'INVALID_PARAM', message } };
}

/** The real path of a root, or undefined when it is gone. */
function realRoot(root: string): string | undefined {
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}

/**
 * Resolves a user or model supplied path against the project root and guarantees the result stays inside it or
 * inside one of `extraRoots` (the session's added directories, real paths), symlinks included: the real path must
 * lie in a root, whichever root the path was written against. Absolute paths inside a root are accepted.
 */
export function resolveInProject(
  projectRoot: string,
  userPath: string,
  extraRoots: readonly string[] = [],
): ResolvedPath {
  if (typeof userPath !== 'string' || userPath.trim() === '')
    return invalid('path is empty; give a project-relative path such as "src/index.ts"');
  if (CONTROL_CHARS.test(userPath))
    return invalid(`path ${JSON.stringify(userPath)} contains NUL or control characters`);
  const home = userPath === '~' || userPath.startsWith('~/');
  if (home && extraRoots.length === 0) {
    return denied(
      `"${userPath}" points into the home directory; only paths inside the project (${projectRoot}) are allowed`,
    );
  }
  const root = realRoot(projectRoot);
  if (root === undefined) return denied(`project root ${projectRoot} does not exist`);
  const extras = extraRoots.map((dir) => realRoot(dir)).filter((dir): dir is string => dir !== undefined);
  const written = home ? expandHome(userPath) : userPath;
  const lexical = isAbsolute(written) ? resolve(written) : resolve(root, written);
  const lexicalRootOk =
    isInside(root, lexical) ||
    isInside(resolve(projectRoot), lexical) ||
    extras.some((dir) => isInside(dir, lexical)) ||
    extraRoots.some((dir) => isInside(resolve(dir), lexical));
  if (!lexicalRootOk) {
    const also = extras.length > 0 ? ` or the added directories (${extras.join(', ')})` : '';
    return denied(
      `"${userPath}" is outside the project root (${root})${also}; only paths inside the project${also ? ' or those directories' : ''} are allowed`,
    );
  }
  let absolute: string;
  try {
    absolute = realPathOf(lexical);
  } catch (error) {
    if (error instanceof LinkLoopError) return invalid(`"${userPath}" has a symlink loop`);
    return denied(`"${userPath}" cannot be resolved: ${(error as Error).message}`);
  }
  const holder = [root, ...extras].find((dir) => isInside(dir, absolute));
  if (holder === undefined) {
    const also = extras.length > 0 ? ' and the added directories' : '';
    return denied(
      `"${userPath}" resolves through a symlink to ${absolute}, which is outside the project root (${root})${also}`,
    );
  }
  const below = relative(holder, absolute).split(sep).join('/');
  const rootRelative = below === '' ? '.' : below;
  const shown = holder === root ? rootRelative : absolute;
  return { ok: true, absolute, relative: shown, root: holder, rootRelative };
}

/**
 * Directories whose files steer mca itself (config, settings, hooks, permission rules), and git's own directory:
 * `.git/config` (core.fsmonitor, core.pager, aliases) and `.git/hooks/*` run commands on the next `git status` or
 * `git commit`, so a write there is as strong as a Bash command.
 */
const CONTROL_DIRS = ['.mca', '.claude'];
const GIT_DIR = '.git';
/** A `.git` file (worktree, submodule) is one short line; anything bigger is not one. */
const GITFILE_MAX_BYTES = 4096;

/**
 * The project-relative directories a `.git` file in the project root points at (`gitdir: <path>`), when they lie
 * inside the project: git runs that directory's config and hooks just like `.git/`'s.
 */
function linkedGitDirs(projectRoot: string): string[] {
  const read = readBoundedFile(join(projectRoot, GIT_DIR), { maxBytes: GITFILE_MAX_BYTES });
  if (!read.ok) return [];
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(read.text);
  if (!match?.[1]) return [];
  let root: string;
  try {
    root = realpathSync(projectRoot);
  } catch {
    return [];
  }
  const target = resolve(root, match[1]);
  let real = target;
  try {
    real = realpathSync(target);
  } catch {
    // a gitdir that does not exist yet is still git's, once created
  }
  return [target, real]
    .filter((dir) => isInside(root, dir) && dir !== root)
    .map((dir) => relative(root, dir).split(sep).join('/').toLowerCase());
}

/**
 * True for a project-relative (already symlink-resolved) path that is one of mca's control files or inside a git
 * directory: a `.git` component at any depth (submodules, nested repositories), or, given the project root, the
 * directory a root `.git` file names. Matched case-insensitively so a case-insensitive file system cannot be used
 * to slip past.
 */
export function isControlFile(relativePath: string, projectRoot?: string): boolean {
  const parts = relativePath.toLowerCase().split('/');
  if (CONTROL_DIRS.includes(parts[0] ?? '')) return true;
  if (parts.includes(GIT_DIR)) return true;
  if (projectRoot === undefined) return false;
  const path = parts.join('/');
  return linkedGitDirs(projectRoot).some((dir) => path === dir || path.startsWith(`${dir}/`));
}
