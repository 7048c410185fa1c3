/**
 * What a running subagent reports beside its tool result, for the fronts that show or forward it: stream-json's
 * `parent_tool_use_id` messages and the SubagentStop hook subscribe here. Every event names the Agent call
 * (`parentToolUseId`, the parent's tool_use id) and the subagent. The parent's own AgentEvent stream never
 * carries them: its context holds only the subagent's answer.
 */
import type { AgentEvent } from '../loop/events.js';
import type { RoundEnd } from '../context/message.js';
import type { Usage } from '../providers/types.js';

export type SubagentEvent =
  | { type: 'subagent_start'; parentToolUseId: string; agent: string; description: string; transcriptPath: string }
  /** One event of the subagent's own loop, as a front would show it (its text, its tool calls, its usage). */
  | { type: 'subagent_event'; parentToolUseId: string; agent: string; event: AgentEvent }
  /** The subagent finished (any way): the SubagentStop hook's moment. */
  | {
      type: 'subagent_stop';
      parentToolUseId: string;
      agent: string;
      reason: RoundEnd;
      answer: string;
      transcriptPath: string;
      usage: Usage;
    };

export type SubagentListener = (event: SubagentEvent) => void;

export class SubagentEvents {
  private readonly listeners = new Set<SubagentListener>();

  /** Subscribes; returns the unsubscribe function. */
  on(listener: SubagentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A listener that throws is not allowed to break the subagent: its error is dropped. */
  emit(event: SubagentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A front's listener failing must not fail the tool call.
      }
    }
  }
}
