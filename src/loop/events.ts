/**
 * The only contract between the core and any front end (Ink REPL, `-p`, stream-json). Every event is
 * plain JSON so stream-json can print it as is.
 */
import type { ContextEvent } from '../context/context-events.js';
import type { RoundEnd, ToolAction } from '../context/message.js';
import type { Usage } from '../providers/types.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

export type { CompactionOutcome, CompactionReason } from '../context/context-events.js';

export type AgentEvent =
  | { type: 'turn_start'; sessionId: string; round: number; input: string; mentions: string[] }
  | ContextEvent
  /** `native`: the step uses native tool use, so its streamed text is plain (no protocol labels). */
  | { type: 'step_start'; step: number; estimatedTokens: number; native?: boolean }
  | { type: 'text_delta'; step: number; text: string }
  /** Extended thinking as it streams (native tool use on Anthropic); shown dimmed, never part of the answer. */
  | { type: 'thinking_delta'; step: number; text: string }
  | {
      type: 'retry';
      step: number;
      attempt: number;
      delayMs: number;
      reason: string;
      maxRetries?: number;
      status?: number;
    }
  /**
   * The step's call moved to a fallback model (`--fallback-model`) because `from` was overloaded or not found; the
   * session driver keeps the session on `to` from here on.
   */
  | { type: 'model_fallback'; step: number; from: string; to: string; reason: string }
  | { type: 'assistant_step'; step: number; thought: string; action: ToolAction | null; raw: string }
  /**
   * `id`: the call's id (the native tool_use id, or one generated when the text protocol parsed the action); a
   * call's `tool_end` carries its `tool_start`'s id. A reply that ran nothing is answered by a `tool_end` of the
   * pseudo-tool `ReAct` with an id of its own.
   */
  | { type: 'tool_start'; step: number; id: string; tool: string; input: unknown }
  | {
      type: 'tool_end';
      step: number;
      id: string;
      tool: string;
      input: unknown;
      result: ToolEnvelope;
      compressed: string;
    }
  | { type: 'usage'; step: number; usage: Usage; contextTokens: number }
  | { type: 'warning'; message: string }
  /** The provider searched the web during the step's reply (its server tool): one line for the person. */
  | { type: 'web_search'; step: number; query: string; results: number; error?: string }
  | {
      type: 'turn_end';
      reason: RoundEnd;
      /** The final answer (Finish or a direct reply); for errors the error line. */
      answer: string;
      steps: number;
      usage: Usage;
      error?: { code: string; message: string };
      /** The model's final answer when only saving it failed (reason 'error'): still shown, then the error. */
      unsavedAnswer?: string;
      /** `--json-schema`: the StructuredOutput call's input that ended the turn (reason 'answer'). */
      structuredOutput?: unknown;
    };

export type AgentEventType = AgentEvent['type'];
