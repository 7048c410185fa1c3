/**
 * The one pre-execution decision point (DESIGN.md "One decision point"). The tool registry calls it for every call,
 * whoever caused it, after the input is validated and before anything runs; it answers allow or deny, asking the
 * PermissionBroker when nothing else decides. Its six stages, in order, are the named functions of
 * decision-stages.ts: deny rules → PreToolUse hooks → ask rules → permission mode → allow rules → the broker. A
 * hook's allow never overrides a deny or ask rule; the user's own `!` lines skip hooks and questions.
 * Whenever a call is to be put to the person (stages 3, 4 and 6), PermissionRequest hooks may answer first; when
 * the person is asked, Notification hooks hear of it.
 */
import type { PermissionMode } from '../config/config.js';
import type { SessionHooks } from '../hooks/session-hooks.js';
import { approvalScope, toolScope } from '../permissions/approval-scope.js';
import type { PathScreen } from '../permissions/path-screen.js';
import { PermissionPolicy, type PolicyDecision } from '../permissions/policy.js';
import { parseRule, type PermissionRule } from '../permissions/rule.js';
import { approvalTitle, callSubject } from '../tools/registry/approval.js';
import type { DecideFn, PermissionDecision, ToolCall } from '../tools/registry/define-tool.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import { deniedByHook, hookAskNobody, nobodyToAsk, rulesUncheckable } from './denials.js';
import {
  allowRules,
  askRules,
  broker as askTheBroker,
  denyRules,
  permissionMode,
  preToolUseHooks,
  type Judged,
  type StagePort,
} from './decision-stages.js';
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

/** Why a call is asked every time (the prompt then offers no "don't ask again"): the ask rule, or the hook. */
function askedBy(ruling: PolicyDecision, hookReason: string | undefined): string {
  if (ruling.behavior === 'ask') return `the ask rule ${ruling.rule.text} from ${ruling.rule.source} asks every time`;
  if (hookReason !== undefined) return 'a PreToolUse hook asks every time';
  return 'mca asks every time for this kind of call';
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
    const shown = {
      ...(hookReason === undefined
        ? request
        : {
            ...request,
            detail: [`A PreToolUse hook asks: ${hookReason}`, request.detail].filter(Boolean).join('\n\n'),
          }),
      ...(offerScope ? {} : { askedBy: askedBy(ruling, hookReason) }),
    };
    return await askBroker(broker, shown, offerScope, call);
  };

  const evaluate = async (extra: readonly PermissionRule[], call: ToolCall, input: unknown) => {
    const added = [...extra, ...remembered];
    return await (added.length > 0 ? base.with(added) : base).evaluate(call.name, input);
  };

  /** The six stages (decision-stages.ts) over one call, with `extra` as added allow rules. */
  const decideWith =
    (extra: readonly PermissionRule[]): DecideFn =>
    async (call, asked) => {
      const request = asked ?? readRequest(call);
      let ruling: PolicyDecision;
      try {
        ruling = await evaluate(extra, call, request.input);
      } catch (error) {
        // Rules that cannot be checked refuse the call: a deny rule may be among them.
        return rulesUncheckable(error);
      }
      const judged: Judged = { call, asked, request, ruling };
      const port: StagePort = {
        evaluate: (input) => evaluate(extra, call, input),
        beforeTool: hooks ? (hooked) => hooks.beforeTool(hooked) : undefined,
        mode: options.mode,
        canAsk: broker !== undefined,
        allowedForSession: (tool) => allowedTools.has(tool),
        ask: (being, offerScope, hookReason) => ask(being.call, being.request, being.ruling, offerScope, hookReason),
      };
      const decision =
        denyRules(judged) ??
        (await preToolUseHooks(judged, port)) ??
        (await askRules(judged, port)) ??
        (await permissionMode(judged, port)) ??
        allowRules(judged, port) ??
        (await askTheBroker(judged, port));
      // An allow carries the hook's input unless a PermissionRequest hook gave its own.
      const updatedInput = judged.hooked?.updatedInput;
      return decision.behavior === 'allow' && updatedInput !== undefined && decision.updatedInput === undefined
        ? { ...decision, updatedInput }
        : decision;
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
