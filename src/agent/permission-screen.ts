/**
 * The permission rules' check for read-only tools (Read, Grep, Glob, LS), which never ask on their own: a deny
 * rule such as `Read(./.env)` refuses the call, an ask rule turns it into a question. Everything else runs.
 */
import type { PermissionPolicy } from '../permissions/policy.js';
import { approvalTitle, requestApproval } from '../tools/approval.js';
import type { ToolEnvelope } from '../tools/envelope.js';
import type { Approver } from '../tools/tool-context.js';

function subjectOf(input: unknown): string {
  if (input === null || typeof input !== 'object') return '.';
  const { path, pattern } = input as { path?: unknown; pattern?: unknown };
  if (typeof path === 'string') return path;
  return typeof pattern === 'string' ? pattern : '.';
}

export function createReadOnlyScreen(
  policy: PermissionPolicy,
  approve: Approver,
): (tool: string, input: unknown) => Promise<ToolEnvelope | undefined> {
  return async (tool, input) => {
    const decision = await policy.evaluate(tool, input);
    if (decision.behavior !== 'deny' && decision.behavior !== 'ask') return undefined;
    const title = approvalTitle(tool, subjectOf(input));
    return await requestApproval({ approve }, { tool, title, input, kind: 'read' });
  };
}
