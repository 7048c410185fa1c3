/**
 * The one pre-execution decision point (DESIGN.md "One decision point"). The tool registry calls it for every call,
 * whoever caused it, after the input is validated and before anything runs; it answers allow or deny, asking the
 * PermissionBroker when nothing else decides. The stages, in order:
 *
 * 1. deny rules: a matching deny rule refuses the call in every mode, bypassPermissions included;
 * 2. hooks: PreToolUse hooks (src/hooks; never for the user's own `!` lines): a deny (or `continue: false`) is
 *    final; an ask puts the call to the person like an ask rule; an allow counts as an allow rule (stage 5), so it
 *    never skips a deny or ask rule or the mode; an `updatedInput` replaces the input and is checked against the
 *    deny rules again; then the `user-shell` rule: a `!` line the user typed runs without a question;
 * 3. ask rules: a matching ask rule asks the person (in every mode; denied when nobody can answer);
 * 4. the permission mode: ExitPlanMode asks only in plan mode; plan refuses every call that changes something;
 *    bypassPermissions allows; a change to a control file is always asked; acceptEdits allows file edits;
 * 5. allow rules (settings files, flags, a custom command's `allowed-tools` for its own lines, and the answers
 *    "yes, don't ask again" given this session); a read-only call no rule named runs;
 * 6. the broker: the person answers (the REPL's dialog); without one (`-p`) the call is denied with a message
 *    naming the rule or flag that would allow it.
 * Whenever a call is to be put to the person (stages 3, 4 and 6), PermissionRequest hooks may answer first; when
 * the person is asked, Notification hooks hear of it.
 */
import type { PermissionMode } from '../config/config.js';
import type { SessionHooks } from '../hooks/session-hooks.js';
import { approvalScope, toolScope } from '../permissions/approval-scope.js';
import type { PathScreen } from '../permissions/path-screen.js';
import { PermissionPolicy, type PolicyDecision } from '../permissions/policy.js';
import { parseRule, type PermissionRule } from '../permissions/rule.js';
import { approvalTitle, callSubject } from '../tools/approval.js';
import type { DecideFn, PermissionDecision, ToolCall } from '../tools/define-tool.js';
import type { ToolEnvelope } from '../tools/envelope.js';
import { EXIT_PLAN_MODE } from '../tools/exit-plan-mode.js';
import type { ApprovalRequest } from '../tools/tool-context.js';
import {
  controlFileDenied,
  deniedByHook,
  deniedByRule,
  hookAskNobody,
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
  /** The session's hooks; absent when none is configured (nothing is spawned then). */
  hooks?: SessionHooks | undefined;
  /** A PostToolUse hook answered `continue: false`: the driver ends the turn (as an interrupt). */
  onHookStop?: (() => void) | undefined;
}

export interface SessionDecisionPoint {
  /** What the registry calls. */
  decide: DecideFn;
  /** The same decision point with `rules` added as allow rules (a custom command's `allowed-tools`). */
  withAllowRules(rules: readonly PermissionRule[]): DecideFn;
  /** From now on this tool is allowed without asking (a "yes, for this session" answer). */
  allowForSession(tool: string): void;
  /** The deny and ask rules on paths, for the files a walk (Grep, Glob, LS) lists beyond its input's path. */
  pathScreen(tool: string): PathScreen | undefined;
  /** After an allowed call ran: PostToolUse/PostToolUseFailure hooks; absent without hooks. */
  afterRun?: ((call: ToolCall, envelope: ToolEnvelope) => Promise<ToolEnvelope>) | undefined;
}

/** The request a call without its own (a read-only tool) is asked or refused under. */
function readRequest(call: ToolCall): ApprovalRequest {
  return { tool: call.name, title: approvalTitle(call.name, callSubject(call.input)), input: call.input, kind: 'read' };
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

  const { hooks } = options;
  /**
   * Puts the call to the person: PermissionRequest hooks may answer for them first; without a broker (`-p`) it is
   * refused, naming the rule (or the PreToolUse hook's reason) that asked.
   */
  const ask = async (
    call: ToolCall,
    request: ApprovalRequest,
    ruling: PolicyDecision,
    offerScope: boolean,
    hookReason?: string,
  ): Promise<PermissionDecision> => {
    const answered = hooks ? await hooks.permissionRequest({ ...call, input: request.input }) : {};
    if (answered.decision === 'deny') return deniedByHook(request, 'PermissionRequest', answered.reason);
    if (answered.decision === 'allow') {
      return answered.updatedInput === undefined
        ? { behavior: 'allow' }
        : { behavior: 'allow', updatedInput: answered.updatedInput };
    }
    if (!broker) return hookReason === undefined ? nobodyToAsk(request, ruling) : hookAskNobody(request, hookReason);
    void hooks?.notification(`mca needs your permission to use ${call.name}`, 'permission_prompt');
    const shown =
      hookReason === undefined
        ? request
        : {
            ...request,
            detail: [`A PreToolUse hook asks: ${hookReason}`, request.detail].filter(Boolean).join('\n\n'),
          };
    return await askBroker(broker, shown, offerScope, call);
  };

  const evaluate = async (extra: readonly PermissionRule[], call: ToolCall, input: unknown) => {
    const added = [...extra, ...remembered];
    return await (added.length > 0 ? base.with(added) : base).evaluate(call.name, input);
  };

  const decideWith =
    (extra: readonly PermissionRule[]): DecideFn =>
    async (call, asked) => {
      let request = asked ?? readRequest(call);
      let ruling: PolicyDecision;
      try {
        ruling = await evaluate(extra, call, request.input);
      } catch (error) {
        // Rules that cannot be checked refuse the call: a deny rule may be among them.
        return rulesUncheckable(error);
      }
      // 1. deny rules; a Bash call asking to leave the sandbox where that is not allowed
      if (ruling.behavior === 'deny') return deniedByRule(request.title, ruling.rule);
      if (typeof request.sandbox === 'object') return { behavior: 'deny', message: request.sandbox.refuse };
      // 2. hooks (they skip the user's own `!` lines), then the user's own `!` lines
      const hooked = hooks ? await hooks.beforeTool(call) : undefined;
      if (hooked?.stop !== undefined) return { ...deniedByHook(request, 'PreToolUse', hooked.stop), interrupt: true };
      if (hooked?.decision === 'deny') return deniedByHook(request, 'PreToolUse', hooked.reason);
      const updatedInput = hooked?.updatedInput;
      if (updatedInput !== undefined) {
        // The hook's input is what runs: the deny and ask rules judge it, not the one it replaced.
        request = { ...request, input: updatedInput };
        try {
          ruling = await evaluate(extra, call, updatedInput);
        } catch (error) {
          return rulesUncheckable(error);
        }
        if (ruling.behavior === 'deny') return deniedByRule(request.title, ruling.rule);
      }
      /** An allow carries the hook's input unless a PermissionRequest hook gave its own. */
      const allow = (decision: PermissionDecision): PermissionDecision =>
        decision.behavior === 'allow' && updatedInput !== undefined && decision.updatedInput === undefined
          ? { ...decision, updatedInput }
          : decision;
      if (call.source === 'user-shell') return { behavior: 'allow' };
      // 3. ask rules, a hook's ask (a hook's allow does not skip them), a Bash call asking to leave the sandbox
      if (ruling.behavior === 'ask' || hooked?.decision === 'ask' || request.sandbox === 'ask') {
        const reason = hooked?.decision === 'ask' && ruling.behavior !== 'ask' ? (hooked.reason ?? '') : undefined;
        return allow(await ask(call, request, ruling, false, reason));
      }
      // 4. the permission mode
      const mode = modeVerdict(options.mode(), call, request, broker);
      if (mode === 'ask') return allow(await ask(call, request, ruling, false));
      if (mode) return allow(mode);
      // 5. allow rules, a hook's allow, read-only calls no rule named, and a Bash call that runs in the sandbox
      // (autoAllowBashIfSandboxed; not once a hook changed the input, which Bash places again when it runs)
      if (
        ruling.behavior === 'allow' ||
        hooked?.decision === 'allow' ||
        allowedTools.has(call.name) ||
        asked === undefined ||
        (request.sandbox === 'auto' && updatedInput === undefined)
      ) {
        return allow({ behavior: 'allow' });
      }
      // 6. the broker
      return allow(await ask(call, request, ruling, true));
    };

  return {
    decide: decideWith([]),
    withAllowRules: (rules) => decideWith(rules),
    pathScreen: (tool) => base.pathScreen(tool),
    ...(hooks?.active
      ? {
          afterRun: async (call: ToolCall, envelope: ToolEnvelope) => {
            const after = await hooks.afterTool(call, envelope);
            if (after.stop !== undefined) options.onHookStop?.();
            return after.envelope;
          },
        }
      : {}),
    allowForSession: (tool) => {
      const scope = toolScope(tool);
      if (scope) remember(scope.rule);
      else allowedTools.add(tool);
    },
  };
}
