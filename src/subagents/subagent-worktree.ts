/**
 * A subagent definition's `isolation: worktree`: the subagent works in a git worktree of its own
 * (src/fs/git-worktree.ts, named `agent-<name>-<call>`, branch `mca/agent-…`), so its edits never touch the
 * session's files. When it is done the worktree is removed if nothing changed, else kept; its result says which,
 * with the branch to merge.
 */
import { createWorktree, removeIfUnchanged, WorktreeError, type Worktree } from '../fs/git-worktree.js';
import { errorEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import type { AgentDefinition } from './agent-definition.js';

export type IsolatedRoot = { ok: true; root: string; worktree?: Worktree } | { ok: false; envelope: ToolEnvelope };

/** Where the subagent works: the project root, or its new worktree. */
export async function subagentRoot(
  definition: AgentDefinition,
  projectRoot: string,
  callId: string,
): Promise<IsolatedRoot> {
  if (definition.isolation !== 'worktree') return { ok: true, root: projectRoot };
  const call = callId.replace(/[^A-Za-z0-9]/g, '').slice(-8) || 'call';
  try {
    const worktree = await createWorktree(projectRoot, `agent-${definition.name}-${call}`.slice(0, 64));
    return { ok: true, root: worktree.path, worktree };
  } catch (error) {
    const message = error instanceof WorktreeError ? error.message : String(error);
    return { ok: false, envelope: errorEnvelope('EXECUTION_ERROR', `subagent ${definition.name}: ${message}`) };
  }
}

/** The subagent's result with what became of its worktree (removed, or kept on its branch). */
export async function withWorktreeReport(worktree: Worktree | undefined, result: ToolEnvelope): Promise<ToolEnvelope> {
  if (!worktree) return result;
  const outcome = await removeIfUnchanged(worktree);
  const data = {
    ...result.data,
    worktree: { path: worktree.path, branch: worktree.branch, kept: !outcome.removed },
  };
  return { ...result, data, text: `${result.text}\n(${outcome.message})` };
}
