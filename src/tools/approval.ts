import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import type { ApprovalRequest, ToolContext } from './tool-context.js';

/**
 * Asks for permission before a tool changes anything. Returns undefined when approved, otherwise the
 * PERMISSION_DENIED envelope to hand back to the model (with the user's reason when one was given).
 */
export async function requestApproval(
  ctx: Pick<ToolContext, 'approve'>,
  request: ApprovalRequest,
): Promise<ToolEnvelope | undefined> {
  let decision;
  try {
    decision = await ctx.approve(request);
  } catch (error) {
    decision = { approved: false as const, reason: `the permission prompt failed: ${(error as Error).message}` };
  }
  if (decision.approved) return undefined;
  const reason = decision.reason?.trim().replace(/[.\s]+$/, '');
  const because = reason ? ` Reason: ${reason}.` : '';
  return errorEnvelope(
    'PERMISSION_DENIED',
    `Permission to run ${request.title} was denied.${because} Do not retry the same call; change the approach or ask the user how to proceed.`,
    { context: { tool: request.tool } },
  );
}

/** `Tool(arg)` on one line, cut so prompts stay readable. */
export function approvalTitle(tool: string, argument: string): string {
  const oneLine = argument.replace(/\s+/g, ' ').trim();
  return `${tool}(${oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine})`;
}
