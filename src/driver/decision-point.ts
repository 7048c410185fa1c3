/**
 * The one pre-execution decision point (DESIGN.md "One decision point"). The tool registry calls it for every call,
 * whoever caused it, after the input is validated and before anything runs; it answers allow or deny, asking the
 * PermissionBroker when nothing else decides. The stages, in order:
 *
 * 1. deny rules: a matching deny rule refuses the call in every mode, bypassPermissions included;
 * 2. hooks: PreToolUse hooks (a later issue; the slot is here, empty: a hook may deny, and its allow never
 *    overrides a deny or ask rule);
 *    then the `user-shell` rule: a `!` line the user typed runs without a question;
 * 3. ask rules: a matching ask rule asks the person (in every mode; denied when nobody can answer);
 * 4. the permission mode: ExitPlanMode asks only in plan mode; plan refuses every call that changes something;
 *    bypassPermissions allows; a change to a control file is always asked; acceptEdits allows file edits;
 * 5. allow rules (settings files, flags, a custom command's `allowed-tools` for its own lines, and the answers
 *    "yes, don't ask again" given this session); a read-only call no rule named runs;
 * 6. the broker: the person answers (the REPL's dialog); without one (`-p`) the call is denied with a message
 *    naming the rule or flag that would allow it.
 */
import type { PermissionMode } from '../config/config.js';
import { approvalScope, toolScope } from '../permissions/approval-scope.js';
import type { PathScreen } from '../permissions/path-screen.js';
import { PermissionPolicy, type PolicyDecision } from '../permissions/policy.js';
import { parseRule, type PermissionRule } from '../permissions/rule.js';
import { approvalTitle, callSubject } from '../tools/approval.js';
import type { DecideFn, PermissionDecision, ToolCall } from '../tools/define-tool.js';
import { EXIT_PLAN_MODE } from '../tools/exit-plan-mode.js';
import type { ApprovalRequest } from '../tools/tool-context.js';
import {
  controlFileDenied,
  deniedByRule,
  nobodyToAsk,
  planModeDenied,
  planNobodyToApprove,
  rulesUncheckable,
} from './denials.js';
import type { PermissionBroker } from './permission-broker.js';

export interface DecisionPointOptions {
  /** The permission rules (settings files and flags); without any only the mode decides. */
  policy?: PermissionPolicy | undefined;
  /** The permission mode now: the driver's one copy, read at every call. */
  mode: () => PermissionMode;
  /** Who answers a question; undefined when nobody can (`-p`). */
  broker?: PermissionBroker | undefined;
}

/** A stage's verdict, or undefined to pass the call on to the next stage. */
type Verdict = PermissionDecision | 'ask' | undefined;

export interface SessionDecisionPoint {
  /** What the registry calls. */
  decide: DecideFn;
  /** The same decision point with `rules` added as allow rules (a custom command's `allowed-tools`). */
  withAllowRules(rules: readonly PermissionRule[]): DecideFn;
  /** From now on this tool is allowed without asking (a "yes, for this session" answer). */
  allowForSession(tool: string): void;
  /** The deny and ask rules on paths, for the files a walk (Grep, Glob, LS) lists beyond its input's path. */
  pathScreen(tool: string): PathScreen | undefined;
}

/** The request a call without its own (a read-only tool) is asked or refused under. */
function readRequest(call: ToolCall): ApprovalRequest {
  return { tool: call.name, title: approvalTitle(call.name, callSubject(call.input)), input: call.input, kind: 'read' };
}

/**
 * Placeholder for PreToolUse hooks (the hooks issue): none exist yet, so every call passes on unchanged. A hook
 * will answer deny (final), ask (a question, like an ask rule), allow (still subject to ask rules) or nothing.
 */
async function runHooks(_call: ToolCall, _request: ApprovalRequest): Promise<Verdict> {
  return undefined;
}

/** Stage 4: what the permission mode says about a call no deny or ask rule decided. */
function modeVerdict(mode: PermissionMode, call: ToolCall, request: ApprovalRequest, broker?: PermissionBroker) {
  if (call.name === EXIT_PLAN_MODE) {
    if (mode !== 'plan') return { behavior: 'allow' } as const;
    return broker ? 'ask' : planNobodyToApprove();
  }
  if (mode === 'plan' && request.kind !== 'read') return planModeDenied(request);
  if (mode === 'bypassPermissions') return { behavior: 'allow' } as const;
  if (request.controlFile === true) return broker ? 'ask' : controlFileDenied(request);
  if (mode === 'acceptEdits' && request.kind === 'edit') return { behavior: 'allow' } as const;
  return undefined;
}

export function createDecisionPoint(options: DecisionPointOptions): SessionDecisionPoint {
  /** Rules from "yes, don't ask again" answers this session: a Bash prefix or the session's edits. */
  let remembered: PermissionRule[] = [];
  const allowedTools = new Set<string>();
  const remember = (text: string): void => {
    const parsed = parseRule(text, 'allow', 'your answer this session');
    if (parsed.ok) remembered = [...remembered, parsed.rule];
  };
  const base = options.policy ?? new PermissionPolicy([], { projectRoot: '/' });
  const { broker } = options;

  const askBroker = async (
    asking: PermissionBroker,
    request: ApprovalRequest,
    offerScope: boolean,
    call: ToolCall,
  ): Promise<PermissionDecision> => {
    const scope = offerScope ? await approvalScope(request.tool, request.input) : undefined;
    let answer;
    try {
      answer = await asking.ask(scope ? { ...request, remember: scope } : request, call);
    } catch (error) {
      return { behavior: 'deny', message: `the permission prompt failed: ${(error as Error).message}` };
    }
    if (!answer.approved) {
      return {
        behavior: 'deny',
        ...(answer.reason === undefined ? {} : { message: answer.reason }),
        ...(answer.endTurn ? { interrupt: true } : {}),
      };
    }
    // Without a scope (a compound Bash command) nothing is remembered: the option was not offered.
    if (answer.remember && scope) remember(scope.rule);
    return {
      behavior: 'allow',
      ...(answer.remember === undefined ? {} : { remember: answer.remember }),
      ...(answer.persist === undefined ? {} : { persist: answer.persist }),
      ...(answer.updatedInput === undefined ? {} : { updatedInput: answer.updatedInput }),
    };
  };

  const decideWith =
    (extra: readonly PermissionRule[]): DecideFn =>
    async (call, asked) => {
      const request = asked ?? readRequest(call);
      let ruling: PolicyDecision;
      try {
        const added = [...extra, ...remembered];
        ruling = await (added.length > 0 ? base.with(added) : base).evaluate(call.name, request.input);
      } catch (error) {
        // Rules that cannot be checked refuse the call: a deny rule may be among them.
        return rulesUncheckable(error);
      }
      // 1. deny rules
      if (ruling.behavior === 'deny') return deniedByRule(request.title, ruling.rule);
      // 2. hooks, then the user's own `!` lines
      const hooked = await runHooks(call, request);
      if (hooked !== undefined && hooked !== 'ask' && hooked.behavior === 'deny') return hooked;
      if (call.source === 'user-shell') return { behavior: 'allow' };
      // 3. ask rules (a hook's allow does not skip them)
      if (ruling.behavior === 'ask' || hooked === 'ask') {
        return broker ? await askBroker(broker, request, false, call) : nobodyToAsk(request, ruling);
      }
      if (hooked !== undefined) return hooked;
      // 4. the permission mode
      const mode = modeVerdict(options.mode(), call, request, broker);
      if (mode === 'ask') return broker ? await askBroker(broker, request, false, call) : nobodyToAsk(request, ruling);
      if (mode) return mode;
      // 5. allow rules, and read-only calls no rule named
      if (ruling.behavior === 'allow' || allowedTools.has(call.name) || asked === undefined) {
        return { behavior: 'allow' };
      }
      // 6. the broker
      return broker ? await askBroker(broker, request, true, call) : nobodyToAsk(request, ruling);
    };

  return {
    decide: decideWith([]),
    withAllowRules: (rules) => decideWith(rules),
    pathScreen: (tool) => base.pathScreen(tool),
    allowForSession: (tool) => {
      const scope = toolScope(tool);
      if (scope) remember(scope.rule);
      else allowedTools.add(tool);
    },
  };
}
