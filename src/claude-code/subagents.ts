/**
 * Subagent traffic in Claude Code's stream-json: while an Agent call runs, its subagent's replies and tool results
 * are `assistant` and `user` lines like the session's own, with `parent_tool_use_id` set to the Agent call's id
 * (Claude Code's convention, so hosts can nest them under the call). One translator per running subagent; its
 * usage is not added to the session's ledger here (the Agent call's own result carries the subagent's cost).
 */
import type { SubagentEvent } from '../subagents/subagent-events.js';
import { ClaudeCodeTranslator, type TranslatorOptions } from './messages.js';
import type { CcMessage } from './types.js';
import { ModelUsageLedger, type ModelLimits } from './usage.js';

/** Subscribes a listener to the runtime's subagent events; returns the unsubscribe function. */
export type SubagentSubscription = (listener: (event: SubagentEvent) => void) => () => void;

export class SubagentLines {
  private readonly running = new Map<string, ClaudeCodeTranslator>();

  constructor(
    private readonly options: Pick<TranslatorOptions, 'sessionId' | 'model' | 'toClaudeCodeInput'> & {
      limits: (model: string) => ModelLimits;
    },
  ) {}

  /** The lines one subagent event makes. */
  event(event: SubagentEvent): CcMessage[] {
    const id = event.parentToolUseId;
    if (event.type === 'subagent_start') {
      this.running.set(id, this.translator(id));
      return [];
    }
    if (event.type === 'subagent_stop') {
      this.running.delete(id);
      return [];
    }
    let translator = this.running.get(id);
    if (!translator) {
      translator = this.translator(id);
      this.running.set(id, translator);
    }
    return translator.event(event.event);
  }

  private translator(parentToolUseId: string): ClaudeCodeTranslator {
    return new ClaudeCodeTranslator({
      sessionId: this.options.sessionId,
      model: this.options.model,
      toClaudeCodeInput: this.options.toClaudeCodeInput,
      ledger: new ModelUsageLedger(this.options.limits),
      parentToolUseId,
    });
  }
}
