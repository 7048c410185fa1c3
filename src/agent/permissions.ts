import type { PermissionMode } from '../config/config.js';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../tools/tool-context.js';

/** A request to change files (the registry stamps the tool's permission kind); `acceptEdits` allows it. */
function isEdit(request: ApprovalRequest): boolean {
  return request.kind === 'edit';
}

export interface ApproverOptions {
  mode: PermissionMode;
  /** Asks the person (the REPL prompt). Undefined when nobody can answer, e.g. `mca -p`. */
  ask?: Approver;
}

/**
 * What the person answered. `endTurn` (Esc or "No" at the REPL prompt): the tool is denied and the round ends
 * after this step instead of letting the model carry on; "No, and tell mca what to do" leaves it unset.
 */
export type UserDecision = ApprovalDecision & { endTurn?: boolean };

/** How a front end asks the person. */
export type UserApprover = (request: ApprovalRequest) => Promise<UserDecision>;

export type SessionApprover = Approver & {
  /** From now on this tool is allowed without asking (a "yes, for this session" answer). */
  allowForSession(tool: string): void;
};

function controlFileDenied(request: ApprovalRequest): ApprovalDecision {
  return {
    approved: false,
    reason:
      `${request.title} changes one of mca's own control files (.mca/, .claude/), which could widen what mca may ` +
      'do; that is only allowed after asking the user, or with --permission-mode bypassPermissions',
  };
}

function nobodyToAsk(request: ApprovalRequest): ApprovalDecision {
  const flag = isEdit(request)
    ? '--permission-mode acceptEdits (or bypassPermissions)'
    : '--permission-mode bypassPermissions or --dangerously-skip-permissions';
  return {
    approved: false,
    reason: `${request.title} needs permission and no one can approve it in this mode; the user can rerun with ${flag} to allow it`,
  };
}

/**
 * Decides tool permissions: bypassPermissions allows everything; acceptEdits allows file edits and asks for
 * the rest; default asks. Without `ask` every question is denied with a message naming the flags that allow it.
 * A change to a control file (`request.controlFile`) is always asked, whatever the mode or earlier answers
 * (only bypassPermissions skips the question), so a project cannot turn an auto-approved edit into more rights.
 */
export function createApprover(options: ApproverOptions): SessionApprover {
  const allowed = new Set<string>();
  const askOnce = async (ask: Approver, request: ApprovalRequest): Promise<ApprovalDecision> => {
    try {
      return await ask(request);
    } catch (error) {
      return { approved: false, reason: `the permission prompt failed: ${(error as Error).message}` };
    }
  };
  const approver = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    if (options.mode === 'bypassPermissions') return { approved: true };
    if (request.controlFile === true) {
      if (!options.ask) return controlFileDenied(request);
      return await askOnce(options.ask, request);
    }
    if (allowed.has(request.tool)) return { approved: true };
    if (options.mode === 'acceptEdits' && isEdit(request)) return { approved: true };
    if (!options.ask) return nobodyToAsk(request);
    const decision = await askOnce(options.ask, request);
    if (decision.approved && decision.remember) allowed.add(request.tool);
    return decision;
  };
  return Object.assign(approver, { allowForSession: (tool: string) => void allowed.add(tool) });
}
