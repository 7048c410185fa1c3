/**
 * The six stages of the decision point (DESIGN.md "One decision point"), each a small function over one call being
 * judged. A stage answers the call's verdict, or undefined to hand it to the next stage; decision-point.ts runs them
 * in order: deny rules → PreToolUse hooks → ask rules → permission mode → allow rules → the broker.
 */
import type { PermissionMode } from '../config/config.js';
import type { PreToolVerdict } from '../hooks/session-hooks.js';
import type { PolicyDecision } from '../permissions/policy.js';
import type { PermissionDecision, ToolCall } from '../tools/registry/define-tool.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import {
  controlFileDenied,
  deniedByHook,
  deniedByRule,
  planModeDenied,
  planNobodyToApprove,
  rulesUncheckable,
} from './denials.js';

/** One call as the stages see it; PreToolUse hooks may replace its input (then `request` and `ruling` follow). */
export interface Judged {
  readonly call: ToolCall;
  /** The request the tool planned; undefined for a read-only call. */
  readonly asked: ApprovalRequest | undefined;
  request: ApprovalRequest;
  ruling: PolicyDecision;
  /** The PreToolUse hooks' verdict (absent without hooks, and for the user's own `!` lines). */
  hooked?: PreToolVerdict | undefined;
}

/** What the stages use of the session's decision point. */
export interface StagePort {
  /** The rules' ruling on `input` (settings, flags, the extra allow rules, this session's answers). */
  evaluate(input: unknown): Promise<PolicyDecision>;
  /** PreToolUse hooks; absent without hooks. */
  beforeTool?: ((call: ToolCall) => Promise<PreToolVerdict>) | undefined;
  mode(): PermissionMode;
  /** Someone can be asked (a broker is installed). */
  canAsk: boolean;
  /** Tools allowed without asking for the rest of the session ("yes, for this session"). */
  allowedForSession(tool: string): boolean;
  /** Puts the call to the person (PermissionRequest hooks first); `hookReason`: a PreToolUse hook asked. */
  ask(judged: Judged, offerScope: boolean, hookReason?: string): Promise<PermissionDecision>;
}

const ALLOW: PermissionDecision = { behavior: 'allow' };

/**
 * 1. Deny rules: a matching deny rule refuses the call in every mode, bypassPermissions included; so is a Bash call
 * asking to leave the sandbox where unsandboxed commands are not allowed (`request.sandbox` names why).
 */
export function denyRules(judged: Judged): PermissionDecision | undefined {
  const { ruling, request } = judged;
  if (ruling.behavior === 'deny') return deniedByRule(request.title, ruling.rule);
  return typeof request.sandbox === 'object' ? { behavior: 'deny', message: request.sandbox.refuse } : undefined;
}

/**
 * 2. PreToolUse hooks (never for the user's own `!` lines): a deny (or `continue: false`) is final; an
 * `updatedInput` replaces the input and is judged by the deny rules again; an ask or allow is kept for stages 3
 * and 5. Then the user's own `!` line runs without a question.
 */
export async function preToolUseHooks(judged: Judged, port: StagePort): Promise<PermissionDecision | undefined> {
  const hooked = port.beforeTool ? await port.beforeTool(judged.call) : undefined;
  judged.hooked = hooked;
  if (hooked?.stop !== undefined) {
    const stopped = deniedByHook(judged.request, 'PreToolUse', hooked.stop);
    return stopped.behavior === 'deny' ? { ...stopped, interrupt: true } : stopped;
  }
  if (hooked?.decision === 'deny') return deniedByHook(judged.request, 'PreToolUse', hooked.reason);
  if (hooked?.updatedInput !== undefined) {
    // The hook's input is what runs: the deny and ask rules judge it, not the one it replaced.
    judged.request = { ...judged.request, input: hooked.updatedInput };
    try {
      judged.ruling = await port.evaluate(hooked.updatedInput);
    } catch (error) {
      return rulesUncheckable(error);
    }
    const denied = denyRules(judged);
    if (denied) return denied;
  }
  return judged.call.source === 'user-shell' ? ALLOW : undefined;
}

/**
 * 3. Ask rules, a PreToolUse hook's ask (a hook's allow does not skip them), and a Bash call asking to leave the
 * sandbox (`dangerouslyDisableSandbox`): the person is asked.
 */
export async function askRules(judged: Judged, port: StagePort): Promise<PermissionDecision | undefined> {
  const { ruling, hooked, request } = judged;
  if (ruling.behavior !== 'ask' && hooked?.decision !== 'ask' && request.sandbox !== 'ask') return undefined;
  const reason = hooked?.decision === 'ask' && ruling.behavior !== 'ask' ? (hooked.reason ?? '') : undefined;
  return await port.ask(judged, false, reason);
}

/**
 * 4. The permission mode: ExitPlanMode asks only in plan mode; plan refuses every call that changes something;
 * bypassPermissions allows; a change to a control file is always asked; acceptEdits allows file edits.
 */
export async function permissionMode(judged: Judged, port: StagePort): Promise<PermissionDecision | undefined> {
  const { request } = judged;
  const mode = port.mode();
  // The call that leaves plan mode (ExitPlanMode: its definition's permission kind is `plan`).
  if (request.kind === 'plan') {
    if (mode !== 'plan') return ALLOW;
    return port.canAsk ? await port.ask(judged, false) : planNobodyToApprove();
  }
  if (mode === 'plan' && request.kind !== 'read') return planModeDenied(request);
  if (mode === 'bypassPermissions') return ALLOW;
  if (request.controlFile === true) return port.canAsk ? await port.ask(judged, false) : controlFileDenied(request);
  if (mode === 'acceptEdits' && request.kind === 'edit') return ALLOW;
  return undefined;
}

/**
 * 5. Allow rules (settings files, flags, a custom command's `allowed-tools`, this session's "yes, don't ask
 * again"), a PreToolUse hook's allow, a read-only call no rule named, and a Bash call that runs in the sandbox
 * (`autoAllowBashIfSandboxed`; not once a hook changed the input, which Bash places again when it runs).
 */
export function allowRules(judged: Judged, port: StagePort): PermissionDecision | undefined {
  const { ruling, hooked, call, asked, request } = judged;
  const allowed =
    ruling.behavior === 'allow' ||
    hooked?.decision === 'allow' ||
    port.allowedForSession(call.name) ||
    asked === undefined ||
    (request.sandbox === 'auto' && hooked?.updatedInput === undefined);
  return allowed ? ALLOW : undefined;
}

/** 6. The broker: the person answers; without one (`-p`) the call is refused naming what would allow it. */
export async function broker(judged: Judged, port: StagePort): Promise<PermissionDecision> {
  return await port.ask(judged, true);
}
