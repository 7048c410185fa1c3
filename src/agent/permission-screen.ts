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
    const title = approvalTitle(tool, subjectOf(input));
    let decision;
    try {
      decision = await policy.evaluate(tool, input);
    } catch (error) {
      // Rules that cannot be checked (their matcher failed to load) refuse the call: a deny rule may be among them.
      const reason = `the permission rules could not be checked (${(error as Error).message})`;
      const refuse: Approver = async () => ({ approved: false, reason });
      return await requestApproval({ approve: refuse }, { tool, title, input, kind: 'read' });
    }
    if (decision.behavior !== 'deny' && decision.behavior !== 'ask') return undefined;
    return await requestApproval({ approve }, { tool, title, input, kind: 'read' });
  };
}
