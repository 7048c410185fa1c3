import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { isInside } from '../fs/contained-path.js';
import type { ToolError } from './envelope.js';
import { McaError } from '../errors/mca-error.js';

export type ResolvedPath = { ok: true; absolute: string; relative: string } | { ok: false; error: ToolError };

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
  if (isLink) return realPathOf(resolve(dirname(target), readlinkSync(target)), hops + 1);
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

/**
 * Resolves a user or model supplied path against the project root and guarantees the result stays inside it,
 * symlinks included. Absolute paths inside the project are accepted. `relative` uses "/" and is "." for the root.
 */
export function resolveInProject(projectRoot: string, userPath: string): ResolvedPath {
  if (typeof userPath !== 'string' || userPath.trim() === '')
    return invalid('path is empty; give a project-relative path such as "src/index.ts"');
  if (CONTROL_CHARS.test(userPath))
    return invalid(`path ${JSON.stringify(userPath)} contains NUL or control characters`);
  if (userPath === '~' || userPath.startsWith('~/')) {
    return denied(
      `"${userPath}" points into the home directory; only paths inside the project (${projectRoot}) are allowed`,
    );
  }
  let root: string;
  try {
    root = realpathSync(projectRoot);
  } catch {
    return denied(`project root ${projectRoot} does not exist`);
  }
  const lexical = isAbsolute(userPath) ? resolve(userPath) : resolve(root, userPath);
  const lexicalRootOk = isInside(root, lexical) || isInside(resolve(projectRoot), lexical);
  if (!lexicalRootOk) {
    return denied(`"${userPath}" is outside the project root (${root}); only paths inside the project are allowed`);
  }
  let absolute: string;
  try {
    absolute = realPathOf(lexical);
  } catch (error) {
    if (error instanceof LinkLoopError) return invalid(`"${userPath}" has a symlink loop`);
    return denied(`"${userPath}" cannot be resolved: ${(error as Error).message}`);
  }
  if (!isInside(root, absolute)) {
    return denied(
      `"${userPath}" resolves through a symlink to ${absolute}, which is outside the project root (${root})`,
    );
  }
  const rel = relative(root, absolute).split(sep).join('/');
  return { ok: true, absolute, relative: rel === '' ? '.' : rel };
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
