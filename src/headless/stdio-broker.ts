/**
 * `--permission-prompt-tool stdio`: the PermissionBroker that asks the SDK host. Every call the decision point
 * would ask a person about becomes a `can_use_tool` control request carrying the call's id and its input in Claude
 * Code's names; the host's `allow` (with an `updatedInput` in either naming) or `deny` (whose `message` reaches the
 * model) is the answer. A host that fails to answer denies the call.
 */
import type { PermissionBroker, UserDecision } from '../driver/permission-broker.js';
import type { ToolCall } from '../tools/registry/define-tool.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import type { ControlChannel } from './control-channel.js';

export interface StdioBrokerOptions {
  channel: ControlChannel;
  toClaudeCodeInput: (tool: string, input: unknown) => unknown;
  fromClaudeCodeInput: (tool: string, input: unknown) => unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function stdioBroker(options: StdioBrokerOptions): PermissionBroker {
  const open = new Set<string>();
  return {
    async ask(request: ApprovalRequest, call?: ToolCall): Promise<UserDecision> {
      const input = record(options.toClaudeCodeInput(request.tool, request.input)) ?? {};
      const { id, answer } = options.channel.request({
        subtype: 'can_use_tool',
        tool_name: request.tool,
        input,
        tool_use_id: call?.id ?? '',
        title: request.title,
        ...(request.detail === undefined ? {} : { description: request.detail }),
        permission_suggestions: [],
      });
      open.add(id);
      const reply = await answer;
      open.delete(id);
      if (!reply.ok) return { approved: false, reason: `The permission request failed: ${reply.error}` };
      const { behavior, message, updatedInput, interrupt } = reply.response;
      if (behavior === 'allow') {
        const updated = record(updatedInput);
        return {
          approved: true,
          ...(updated === undefined ? {} : { updatedInput: options.fromClaudeCodeInput(request.tool, updated) }),
        };
      }
      const reason = typeof message === 'string' && message.trim() !== '' ? message : 'The host denied this call.';
      return { approved: false, reason, ...(interrupt === true ? { endTurn: true } : {}) };
    },
    cancel(reason: string) {
      for (const id of [...open]) options.channel.cancel(id, reason);
      open.clear();
    },
  };
}
