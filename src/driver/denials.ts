/**
 * Why the decision point refused a call, in the words the model (and `-p`'s stderr) gets: each names what would
 * have allowed the call (a rule, a flag, the person).
 */
import { describeRule, type PolicyDecision } from '../permissions/policy.js';
import type { PermissionRule } from '../permissions/rule.js';
import type { PermissionDecision } from '../tools/registry/define-tool.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';

function deny(message: string): PermissionDecision {
  return { behavior: 'deny', message };
}

/** A deny rule matched: it holds in every mode, bypassPermissions included. */
export function deniedByRule(title: string, rule: PermissionRule): PermissionDecision {
  return deny(`${title} is denied by the rule ${describeRule(rule)}`);
}

/** A hook refused the call: its reason is what the model reads. */
export function deniedByHook(request: ApprovalRequest, event: string, reason: string | undefined): PermissionDecision {
  return deny(reason && reason.trim() !== '' ? reason : `${request.title} was denied by a ${event} hook`);
}

/** A PreToolUse hook asked for confirmation and nobody can answer (`-p`). */
export function hookAskNobody(request: ApprovalRequest, reason: string): PermissionDecision {
  const why = reason.trim() === '' ? '' : ` (${reason})`;
  return deny(
    `${request.title} must be confirmed by the user: a PreToolUse hook asks${why}, and no one can answer in this mode`,
  );
}

export function rulesUncheckable(error: unknown): PermissionDecision {
  const message = error instanceof Error ? error.message : String(error);
  return deny(`the permission rules could not be checked (${message})`);
}

export function controlFileDenied(request: ApprovalRequest): PermissionDecision {
  return deny(
    `${request.title} changes one of mca's own control files (.mca/, .claude/, .git/), which could widen what mca may ` +
      'do; that is only allowed after asking the user, or with --permission-mode bypassPermissions',
  );
}

/** Nobody can answer (`-p`): an ask rule's question, or a call no rule or mode allowed. */
export function nobodyToAsk(request: ApprovalRequest, ruling: PolicyDecision | undefined): PermissionDecision {
  if (ruling?.behavior === 'ask') {
    return deny(
      `${request.title} must be confirmed by the user (${describeRule(ruling.rule)}) and no one can answer in this mode`,
    );
  }
  const flag =
    request.kind === 'edit'
      ? '--permission-mode acceptEdits (or bypassPermissions)'
      : '--permission-mode bypassPermissions or --dangerously-skip-permissions';
  const note = ruling?.behavior === 'none' && ruling.note ? ` (${ruling.note})` : '';
  return deny(
    `${request.title} needs permission and no one can approve it in this mode${note}; the user can allow it ` +
      `with a permission rule (settings file or --allowedTools) or rerun with ${flag}`,
  );
}

export function planModeDenied(request: ApprovalRequest): PermissionDecision {
  return deny(
    `plan mode is on: only read-only tools run, so ${request.title} did not. Explore with LS, Glob, Grep and ` +
      'Read, then present your plan with ExitPlanMode; the user approves it before anything changes',
  );
}

export function planNobodyToApprove(): PermissionDecision {
  return deny('no one can approve a plan in print mode; give the plan as your final answer instead');
}
