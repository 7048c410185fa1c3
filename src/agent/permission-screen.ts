/**
 * Today's decision point, as the registry calls it (`DecideFn`): a call that brings an approval request goes to
 * the approver (rules, then mode, then the person); a read-only call (no request) passes the permission rules'
 * screen: a deny rule such as `Read(./.env)` refuses it, an ask rule turns it into a question, everything else runs.
 */
import type { PermissionPolicy } from '../permissions/policy.js';
import { approvalTitle, callSubject } from '../tools/approval.js';
import type { DecideFn, PermissionDecision } from '../tools/define-tool.js';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../tools/tool-context.js';

/** The approver's answer as the decision point gives it. */
export function decisionOf(decision: ApprovalDecision): PermissionDecision {
  if (!decision.approved)
    return decision.reason === undefined ? { behavior: 'deny' } : { behavior: 'deny', message: decision.reason };
  return {
    behavior: 'allow',
    ...(decision.remember === undefined ? {} : { remember: decision.remember }),
    ...(decision.persist === undefined ? {} : { persist: decision.persist }),
  };
}

/** `approve` decides what a call asks; `policy` (when there are rules) screens read-only calls. */
export function createDecide(approve: Approver, policy?: PermissionPolicy): DecideFn {
  return async (call, request) => {
    if (request) return decisionOf(await approve(request));
    if (!policy) return { behavior: 'allow' };
    const readRequest: ApprovalRequest = {
      tool: call.name,
      title: approvalTitle(call.name, callSubject(call.input)),
      input: call.input,
      kind: 'read',
    };
    let ruling;
    try {
      ruling = await policy.evaluate(call.name, call.input);
    } catch (error) {
      // Rules that cannot be checked (their matcher failed to load) refuse the call: a deny rule may be among them.
      return { behavior: 'deny', message: `the permission rules could not be checked (${(error as Error).message})` };
    }
    if (ruling.behavior !== 'deny' && ruling.behavior !== 'ask') return { behavior: 'allow' };
    return decisionOf(await approve(readRequest));
  };
}
