/**
 * The steps of one registry call that need nothing of the registry itself: the request the decision point sees, a
 * decision point that throws, and a tool that throws. Each turns a failure into an answer: `run` never throws.
 */
import { approvalTitle, callSubject } from './approval.js';
import type { DecideFn, PermissionDecision, ToolCall, ToolDefinition, ToolPlan } from './define-tool.js';
import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import type { ApprovalRequest } from './tool-context.js';

/**
 * The request the decision point sees, stamped with the tool's permission kind: the plan's own; for a tool that
 * changes something but planned no request, its title; undefined for a read-only tool; `refused` when a
 * read-only tool asks anyway (it declared it changes nothing).
 */
export function requestOf(
  tool: ToolDefinition,
  plan: Extract<ToolPlan, { ok: true }>,
  input: unknown,
): ApprovalRequest | undefined | 'refused' {
  if (tool.permission === 'none') return plan.request ? 'refused' : undefined;
  const request = plan.request ?? { tool: tool.name, title: approvalTitle(tool.name, callSubject(input)), input };
  return { ...request, kind: tool.permission };
}

/** A decision point that throws (a prompt that failed) denies the call with the reason. */
export async function decideSafely(
  decide: DecideFn,
  call: ToolCall,
  request: ApprovalRequest | undefined,
): Promise<PermissionDecision> {
  try {
    return await decide(call, request);
  } catch (error) {
    return { behavior: 'deny', message: `the permission prompt failed: ${(error as Error).message}` };
  }
}

/**
 * A rewritten input (a hook's or a host's `updatedInput`) was allowed under the request of the input it replaced.
 * When its own request is guarded differently (it writes a control file, `.claude/settings.local.json` or
 * `.git/hooks/…`, or is a different kind of change), the decision is made again on the rewritten call, every stage
 * included: the decision that allowed the original says nothing about it. A second rewrite to something else is
 * refused. Undefined: the first decision stands.
 */
export async function recheckRewritten(
  decide: DecideFn,
  call: ToolCall,
  before: ApprovalRequest | undefined,
  after: ApprovalRequest | undefined | 'refused',
): Promise<PermissionDecision | undefined> {
  if (after === 'refused')
    return { behavior: 'deny', message: 'the rewritten input asks for a permission its tool does not declare' };
  const guardedAlike = (after?.controlFile === true) === (before?.controlFile === true) && after?.kind === before?.kind;
  if (guardedAlike) return undefined;
  const again = await decideSafely(decide, call, after);
  if (again.behavior === 'deny') return again;
  if (again.updatedInput !== undefined && JSON.stringify(again.updatedInput) !== JSON.stringify(call.input)) {
    return { behavior: 'deny', message: 'the input was rewritten again while its rewrite was being checked' };
  }
  return undefined;
}

/** A tool that throws still answers with an envelope: interrupted when its signal fired, else INTERNAL_ERROR. */
export async function guardThrows(
  name: string,
  signal: AbortSignal,
  work: () => Promise<ToolEnvelope>,
): Promise<ToolEnvelope> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) {
      return errorEnvelope('EXECUTION_ERROR', `${name} was interrupted.`, { data: { interrupted: true } });
    }
    const message = error instanceof Error ? error.message : String(error);
    return errorEnvelope('INTERNAL_ERROR', `${name} failed unexpectedly: ${message}`);
  }
}
