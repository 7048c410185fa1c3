/**
 * The step-level values the ContextEngine takes and gives (context-engine.ts): what the next model call sends, the
 * model's reply of a step and the result of its action.
 */
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { Usage } from '../providers/types.js';
import type { BuiltContext } from './context-builder.js';
import type { ToolAction } from './message.js';
import type { NativeStep } from './native-turn.js';

/** What the next model call sends, or why nothing may be sent. */
export type PreparedStep =
  | { kind: 'ready'; context: BuiltContext; maxTokens: number }
  | {
      /** Even after an emergency compaction the prompt leaves less than MIN_OUTPUT_TOKENS of the window. */
      kind: 'too_large';
      context: BuiltContext;
      code: 'CONTEXT_TOO_LARGE';
      message: string;
    };

/** The model's reply of one step, as history stores it. */
export interface StepReply {
  step: number;
  text: string;
  /** The call's usage (absent for a refused reply, which then does not count as the last usage). */
  usage?: Usage;
  /** The tool call the reply makes. */
  action?: ToolAction;
  /** Set when the reply ends the turn (a Finish or a direct answer). */
  roundEnd?: 'answer' | 'finish';
  /** The id of the call this stored step makes (kept in metadata; pairs it with its result). */
  callId?: string;
}

/** The result of a step's action: compressed into history, full into this turn's scratchpad. */
export interface StepObservation {
  step: number;
  /** The assistant text of the step as stored (the scratchpad shows it above the observation). */
  assistantText: string;
  action: ToolAction;
  envelope: ToolEnvelope;
  /** Native tool use: the reply and call this result answers, so the current turn renders as native blocks. */
  native?: NativeStep;
  /** The id of the call this result answers (text protocol: generated when the action was parsed). */
  callId?: string;
}
