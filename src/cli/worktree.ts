/**
 * `mca --worktree [name]`: the session runs in a new git worktree of the current repository, on a branch of its
 * own, so several sessions can work on one repository without touching each other's files.
 *
 * Contract:
 * - The worktree is `<repository root>/.mca/worktrees/<name>` on a new branch `mca/<name>`, made from HEAD. A
 *   worktree of that name that already exists is reused as it is (a second session joins it).
 * - `.mca/worktrees/` ignores itself (its own .gitignore), so the main checkout's status and walks never see it.
 * - When the session ends, a worktree mca created is removed with its branch if nothing changed in it (no
 *   uncommitted change, no new commit); otherwise it stays and mca says where.
 * Loaded only when the flag is given.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CliError } from './exit-codes.js';

const run = promisify(execFile);

export interface Worktree {
  path: string;
  branch: string;
  /** mca made it now (so it may remove it when nothing changed). */
  created: boolean;
  /** The commit it started from. */
  base: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, encoding: 'utf8' });
  return stdout.trim();
}

function defaultName(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `session-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Creates (or reuses) the worktree `name` of the repository at `cwd`. */
export async function enterWorktree(cwd: string, name: string | undefined): Promise<Worktree> {
  const chosen = name ?? defaultName();
  if (!NAME.test(chosen)) {
    throw new CliError(`--worktree: "${chosen}" is not a usable name (letters, digits, ".", "_", "-")`);
  }
  let root: string;
  try {
    root = await git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new CliError(`--worktree needs a git repository; ${cwd} is not in one`);
  }
  const dir = join(root, '.mca', 'worktrees');
  const path = join(dir, chosen);
  const branch = `mca/${chosen}`;
  if (existsSync(path)) {
    return { path, branch: await git(path, ['rev-parse', '--abbrev-ref', 'HEAD']), created: false, base: '' };
  }
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, '.gitignore'))) writeFileSync(join(dir, '.gitignore'), '*\n');
  let base: string;
  try {
    base = await git(root, ['rev-parse', 'HEAD']);
    await git(root, ['worktree', 'add', '-b', branch, path, base]);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(-2).join(' ').trim() : String(error);
    throw new CliError(`--worktree: could not create ${path}: ${detail}`);
  }
  return { path, branch, created: true, base };
}

/**
 * The session is over: removes a worktree mca created when nothing changed in it, and says what it did (one line
 * for stderr).
 */
export async function leaveWorktree(worktree: Worktree): Promise<string> {
  const kept = `the worktree ${worktree.path} (branch ${worktree.branch}) is kept`;
  if (!worktree.created) return kept;
  try {
    const status = await git(worktree.path, ['status', '--porcelain']);
    const head = await git(worktree.path, ['rev-parse', 'HEAD']);
    if (status !== '' || head !== worktree.base) return `${kept}: it has changes`;
    await git(worktree.path, ['worktree', 'remove', worktree.path]);
    await git(join(worktree.path, '..'), ['branch', '-D', worktree.branch]);
    return `removed the worktree ${worktree.path} and its branch ${worktree.branch} (no changes)`;
  } catch (error) {
    return `${kept} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}
