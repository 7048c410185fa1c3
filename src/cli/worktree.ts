/**
 * `mca --worktree [name]`: the session runs in a new git worktree of the current repository (src/fs/git-worktree.ts)
 * and says where; when it is over, the worktree is removed if nothing changed in it, else kept. Loaded only when
 * the flag is given.
 */
import {
  createWorktree,
  defaultWorktreeName,
  removeIfUnchanged,
  WorktreeError,
  type Worktree,
} from '../fs/git-worktree.js';
import { CliError } from './exit-codes.js';

export type { Worktree };

/** Creates (or reuses) the worktree `name` of the repository at `cwd`; a failure is a CliError (exit 2). */
export async function enterWorktree(cwd: string, name: string | undefined): Promise<Worktree> {
  try {
    return await createWorktree(cwd, name ?? defaultWorktreeName());
  } catch (error) {
    if (error instanceof WorktreeError) throw new CliError(`--worktree: ${error.message}`);
    throw error;
  }
}

/** The session is over: one line for stderr saying whether the worktree was removed or kept. */
export async function leaveWorktree(worktree: Worktree): Promise<string> {
  return (await removeIfUnchanged(worktree)).message;
}
