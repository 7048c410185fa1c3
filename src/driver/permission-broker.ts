/**
 * The PermissionBroker port: how the session driver asks a person about a call no rule or mode decided. The REPL
 * implements it with its permission dialog (src/ui/use-permission.ts); `mca -p` has no broker, so such calls are
 * denied with a message naming the rule or flag that would allow them.
 */
import type { ToolCall } from '../tools/registry/define-tool.js';
import type { ApprovalDecision, ApprovalRequest } from '../tools/registry/tool-context.js';

/**
 * What the person answered. `endTurn` (Esc or "No" at the REPL prompt): the call is denied and the round ends
 * after this step instead of letting the model carry on; "No, and tell mca what to do" leaves it unset.
 */
export type UserDecision = ApprovalDecision & {
  endTurn?: boolean;
  /** An allow that changes the call's input (an SDK host's `updatedInput`, already in mca's names). */
  updatedInput?: unknown;
};

export interface PermissionBroker {
  /** Shows `request` (for `call`, whose id a host may need) and resolves with the person's answer. */
  ask(request: ApprovalRequest, call?: ToolCall): Promise<UserDecision>;
  /**
   * Answers a question still open with "no" and `reason` (the run ended or was interrupted), so the waiting call
   * returns. No-op when nothing is open.
   */
  cancel(reason: string): void;
}
