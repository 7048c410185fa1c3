/**
 * The only contract between the core and any front end (Ink REPL, `-p`, stream-json). Every event is
 * plain JSON so stream-json can print it as is.
 */
import type { RoundEnd, ToolAction } from '../context/message.js';
import type { Usage } from '../providers/types.js';
import type { ToolEnvelope } from '../tools/envelope.js';

export type CompactionReason = 'threshold' | 'manual' | 'emergency';
export type CompactionOutcome = 'summary' | 'timeout' | 'failed' | 'nothing_to_compact';

export type AgentEvent =
  | { type: 'turn_start'; sessionId: string; round: number; input: string; mentions: string[] }
  | { type: 'compaction_start'; reason: CompactionReason; tokensBefore: number; roundsToArchive: number }
  | {
      type: 'compaction_end';
      reason: CompactionReason;
      outcome: CompactionOutcome;
      tokensBefore: number;
      tokensAfter: number;
      roundsKept: number;
      roundsArchived: number;
      /** Exact user-facing line for timeout/failure (spec E2), absent on success. */
      message?: string;
    }
  | { type: 'degrade'; level: 1 | 2 | 3; message: string }
  | { type: 'step_start'; step: number; estimatedTokens: number }
  | { type: 'text_delta'; step: number; text: string }
  | { type: 'retry'; step: number; attempt: number; delayMs: number; reason: string }
  | { type: 'assistant_step'; step: number; thought: string; action: ToolAction | null; raw: string }
  | { type: 'tool_start'; step: number; tool: string; input: unknown }
  | { type: 'tool_end'; step: number; tool: string; input: unknown; result: ToolEnvelope; compressed: string }
  | { type: 'usage'; step: number; usage: Usage; contextTokens: number }
  | { type: 'warning'; message: string }
  | {
      type: 'turn_end';
      reason: RoundEnd;
      /** The final answer (Finish or a direct reply); for errors the error line. */
      answer: string;
      steps: number;
      usage: Usage;
      error?: { code: string; message: string };
    };

export type AgentEventType = AgentEvent['type'];
