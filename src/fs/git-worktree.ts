/**
 * Git worktrees for isolated work (`mca --worktree`, a subagent's `isolation: worktree`): one repository, several
 * working directories, each on a branch of its own, so sessions and subagents do not touch each other's files.
 *
 * Contract:
 * - `createWorktree` makes `<repository root>/.mca/worktrees/<name>` on a new branch `mca/<name>` from HEAD, or
 *   reuses that directory when it already exists. `.mca/worktrees/` ignores itself (its own .gitignore), so the
 *   main checkout's status and walks never see it. Failures are WorktreeError with one line a person can act on.
 * - `removeIfUnchanged` removes a worktree this process created, with its branch, when nothing changed in it (no
 *   uncommitted change, no new commit); otherwise it stays. Never throws.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { McaError } from '../errors/mca-error.js';

const run = promisify(execFile);

export class WorktreeError extends McaError {
  readonly code = 'WORKTREE_ERROR' as const;
}

export interface Worktree {
  path: string;
  branch: string;
  /** This process made it (so it may remove it when nothing changed). */
  created: boolean;
  /** The commit it started from ('' for a reused one). */
  base: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, encoding: 'utf8' });
  return stdout.trim();
}

/** `session-20261128-221500-x7k2`: a fresh name when none is given. */
export function defaultWorktreeName(prefix = 'session'): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${prefix}-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

export async function createWorktree(cwd: string, name: string): Promise<Worktree> {
  if (!NAME.test(name))
    throw new WorktreeError(`"${name}" is not a usable worktree name (letters, digits, ".", "_", "-")`);
  let root: string;
  try {
    root = await git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new WorktreeError(`a worktree needs a git repository; ${cwd} is not in one`);
  }
  const dir = join(root, '.mca', 'worktrees');
  const path = join(dir, name);
  const branch = `mca/${name}`;
  if (existsSync(path)) {
    return { path, branch: await git(path, ['rev-parse', '--abbrev-ref', 'HEAD']), created: false, base: '' };
  }
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, '.gitignore'))) writeFileSync(join(dir, '.gitignore'), '*\n');
  try {
    const base = await git(root, ['rev-parse', 'HEAD']);
    await git(root, ['worktree', 'add', '-b', branch, path, base]);
    return { path, branch, created: true, base };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(-2).join(' ').trim() : String(error);
    throw new WorktreeError(`could not create the worktree ${path}: ${detail}`);
  }
}

/** Whether anything changed in the worktree since it was made (a reused one counts as changed). */
async function changed(worktree: Worktree): Promise<boolean> {
  if (!worktree.created) return true;
  const status = await git(worktree.path, ['status', '--porcelain']);
  const head = await git(worktree.path, ['rev-parse', 'HEAD']);
  return status !== '' || head !== worktree.base;
}

/** Removes an unchanged worktree this process made; says what happened in one line. */
export async function removeIfUnchanged(worktree: Worktree): Promise<{ removed: boolean; message: string }> {
  const kept = `the worktree ${worktree.path} (branch ${worktree.branch}) is kept`;
  try {
    if (!worktree.created) return { removed: false, message: kept };
    if (await changed(worktree)) return { removed: false, message: `${kept}: it has changes` };
    await git(worktree.path, ['worktree', 'remove', worktree.path]);
    await git(join(worktree.path, '..'), ['branch', '-D', worktree.branch]);
    return {
      removed: true,
      message: `removed the worktree ${worktree.path} and its branch ${worktree.branch} (no changes)`,
    };
  } catch (error) {
    return {
      removed: false,
      message: `${kept} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}
