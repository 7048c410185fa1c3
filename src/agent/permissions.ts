import type { PermissionMode } from '../config/config.js';
import { EXIT_PLAN_MODE } from '../tools/exit-plan-mode.js';
import { approvalScope, toolScope } from '../permissions/approval-scope.js';
import { describeRule, PermissionPolicy, type PolicyDecision } from '../permissions/policy.js';
import { parseRule, type PermissionRule } from '../permissions/rule.js';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../tools/tool-context.js';

/** A request to change files (the registry stamps the tool's permission kind); `acceptEdits` allows it. */
function isEdit(request: ApprovalRequest): boolean {
  return request.kind === 'edit';
}

export interface ApproverOptions {
  /** The mode now; a function when the front end can change it mid-session (Shift+Tab, an approved plan). */
  mode: PermissionMode | (() => PermissionMode);
  /** Asks the person (the REPL prompt). Undefined when nobody can answer, e.g. `mca -p`. */
  ask?: Approver;
  /** The permission rules (settings files and flags); without one only the mode decides. */
  policy?: PermissionPolicy;
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
      `${request.title} changes one of mca's own control files (.mca/, .claude/, .git/), which could widen what mca may ` +
      'do; that is only allowed after asking the user, or with --permission-mode bypassPermissions',
  };
}

function nobodyToAsk(request: ApprovalRequest, decision: PolicyDecision | undefined): ApprovalDecision {
  if (decision?.behavior === 'ask') {
    return {
      approved: false,
      reason: `${request.title} must be confirmed by the user (${describeRule(decision.rule)}) and no one can answer in this mode`,
    };
  }
  const flag = isEdit(request)
    ? '--permission-mode acceptEdits (or bypassPermissions)'
    : '--permission-mode bypassPermissions or --dangerously-skip-permissions';
  const note = decision?.behavior === 'none' && decision.note ? ` (${decision.note})` : '';
  return {
    approved: false,
    reason:
      `${request.title} needs permission and no one can approve it in this mode${note}; the user can allow it ` +
      `with a permission rule (settings file or --allowedTools) or rerun with ${flag}`,
  };
}

function planModeDenied(request: ApprovalRequest): ApprovalDecision {
  return {
    approved: false,
    reason:
      `plan mode is on: only read-only tools run, so ${request.title} did not. Explore with LS, Glob, Grep and ` +
      'Read, then present your plan with ExitPlanMode; the user approves it before anything changes',
  };
}

/** ExitPlanMode: outside plan mode there is nothing to approve; in it the user must (nobody can in -p). */
async function presentPlan(
  request: ApprovalRequest,
  mode: PermissionMode,
  ask: Approver | undefined,
  askOnce: (ask: Approver, request: ApprovalRequest) => Promise<ApprovalDecision>,
): Promise<ApprovalDecision> {
  if (mode !== 'plan') return { approved: true };
  if (!ask) {
    return {
      approved: false,
      reason: 'no one can approve a plan in print mode; give the plan as your final answer instead',
    };
  }
  return await askOnce(ask, request);
}

/** The reason given to the model (and printed by -p) when a deny rule matched. */
export function deniedByRule(title: string, rule: PermissionRule): ApprovalDecision {
  return { approved: false, reason: `${title} is denied by the rule ${describeRule(rule)}` };
}

/**
 * Decides tool permissions. Rules first: a deny rule denies in every mode; an ask rule asks even where the mode
 * or an earlier answer would allow; an allow rule allows. Then the mode: bypassPermissions allows everything;
 * acceptEdits allows file edits and asks for the rest; default asks. Without `ask` every question is denied with a message naming the flags that allow it.
 * A change to a control file (`request.controlFile`) is always asked, whatever the mode or earlier answers
 * (only bypassPermissions skips the question), so a project cannot turn an auto-approved edit into more rights.
 */
export function createApprover(options: ApproverOptions): SessionApprover {
  const allowed = new Set<string>();
  /** Rules from "yes, don't ask again" answers: a Bash prefix or the session's edits. */
  let policy = options.policy ?? new PermissionPolicy([], { projectRoot: '/' });
  const rememberRule = (text: string): void => {
    const parsed = parseRule(text, 'allow', 'your answer this session');
    if (parsed.ok) policy = policy.with([parsed.rule]);
  };
  const askOnce = async (ask: Approver, request: ApprovalRequest): Promise<ApprovalDecision> => {
    try {
      return await ask(request);
    } catch (error) {
      return { approved: false, reason: `the permission prompt failed: ${(error as Error).message}` };
    }
  };
  const modeNow = (): PermissionMode => (typeof options.mode === 'function' ? options.mode() : options.mode);
  const approver = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    const mode = modeNow();
    // Deny rules hold in every mode, bypassPermissions included (as in Claude Code).
    const ruling = await policy.evaluate(request.tool, request.input);
    if (ruling?.behavior === 'deny') return deniedByRule(request.title, ruling.rule);
    if (request.tool === EXIT_PLAN_MODE) return await presentPlan(request, mode, options.ask, askOnce);
    // Plan mode stops what changes something; a read-only tool a rule asks about is a question, not a change.
    if (mode === 'plan' && request.kind !== 'read') return planModeDenied(request);
    if (mode === 'bypassPermissions') return { approved: true };
    if (request.controlFile === true) {
      if (!options.ask) return controlFileDenied(request);
      return await askOnce(options.ask, request);
    }
    if (ruling?.behavior === 'ask') {
      if (!options.ask) return nobodyToAsk(request, ruling);
      return await askOnce(options.ask, request);
    }
    if (ruling?.behavior === 'allow') return { approved: true };
    if (allowed.has(request.tool)) return { approved: true };
    if (mode === 'acceptEdits' && isEdit(request)) return { approved: true };
    if (!options.ask) return nobodyToAsk(request, ruling);
    const scope = await approvalScope(request.tool, request.input);
    const decision = await askOnce(options.ask, scope ? { ...request, remember: scope } : request);
    // Without a scope (a compound Bash command) nothing is remembered: the option was not offered.
    if (decision.approved && decision.remember && scope) rememberRule(scope.rule);
    return decision;
  };
  return Object.assign(approver, {
    allowForSession: (tool: string) => {
      const scope = toolScope(tool);
      if (scope) rememberRule(scope.rule);
      else allowed.add(tool);
    },
  });
}
