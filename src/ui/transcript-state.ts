/**
 * The transcript's model: what the REPL shows (entries written once, in order, and the live area of the turn
 * running now) and the actions that change it. The transitions are transcript-reducer.ts; the components read
 * these shapes.
 */
import type { ContextReport } from '../loop/controller.js';
import type { AgentEvent, CompactionReason } from '../loop/events.js';
import type { UsageByModel } from '../context/archived-usage.js';
import type { ModelPrice } from '../providers/model-prices.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import type { TodoItem } from '../tools/registry/tool-data.js';
import type { SlashCommandEntry } from './slash-commands.js';

export type Tone = 'dim' | 'info' | 'success' | 'warning' | 'error';

export type TranscriptEntry =
  | { kind: 'user'; text: string }
  | { kind: 'thought'; text: string }
  | { kind: 'tool'; tool: string; input: unknown; result: ToolEnvelope }
  /** `continued`: a later part of an answer whose first blocks were written while it streamed. */
  | { kind: 'answer'; text: string; continued?: boolean }
  /** A `!command` the user ran: its result is shown like a Bash call and sent to the model with the next turn. */
  | { kind: 'shell'; command: string; result: ToolEnvelope }
  | { kind: 'notice'; text: string; tone: Tone }
  | { kind: 'context'; report: ContextReport }
  | { kind: 'todos'; todos: TodoItem[] }
  /** An approved plan (ExitPlanMode), kept readable in the transcript as Markdown. */
  | { kind: 'plan'; text: string }
  | { kind: 'cost'; usage: UsageByModel; model: string; prices?: Readonly<Record<string, ModelPrice>> }
  | { kind: 'help'; custom?: readonly SlashCommandEntry[]; page?: number };

export type TranscriptItem = TranscriptEntry & { id: number };

/** A call that started and has not ended yet. */
export interface LiveTool {
  id: string;
  tool: string;
  input: unknown;
}

export interface LiveState {
  running: boolean;
  step: number;
  /** Raw model text of the step being streamed. */
  streamText: string;
  /** The thought of a step with no action: shown before the answer unless it is the answer. */
  pendingThought: string;
  /**
   * The calls running now, in the order they started: concurrent read-only calls of one native reply run side by
   * side, each shown on its own line until its own `tool_end` (matched by id) writes it to the transcript.
   */
  tools: readonly LiveTool[];
  compacting: { reason: CompactionReason; tokensBefore: number; roundsToArchive: number } | null;
  /** Output tokens of this turn so far. */
  turnTokens: number;
  /** The part of the streaming answer already written to the transcript (whole Markdown blocks). */
  answerShown: string;
  /** Extended thinking of the step so far; written dimmed once the step's text, calls or end arrive. */
  thinking: string;
  /** Native tool use: the streamed text is plain, shown as it arrives (an answer, or what precedes calls). */
  native: boolean;
}

export interface TranscriptState {
  items: TranscriptItem[];
  live: LiveState;
  nextId: number;
  /** Tokens the last model call occupied (from usage events), for the status line. */
  contextTokens: number | null;
  /** Every model call's usage in this session (resumed sessions start from their stored usage), for /cost. */
  sessionUsage: UsageByModel;
}

export type TranscriptAction =
  | { type: 'event'; event: AgentEvent }
  /** A submitted prompt, shown before its turn's events arrive. */
  | { type: 'user'; text: string }
  | { type: 'append'; entry: TranscriptEntry }
  /** The run or compaction ended without a turn_end (it threw, or the stream just stopped). */
  | { type: 'stopped'; message?: string | undefined }
  /** A `!command` started: the live area shows it running until `stopped`. */
  | { type: 'shell_start'; command: string }
  /** Ctrl-L: the screen was cleared; what was shown is not written again. */
  | { type: 'clear_items' }
  /** After /clear or /resume: the new session's known usage; `clear` also drops the shown items (screen cleared). */
  | { type: 'switch_session'; tokens: number | null; usage: UsageByModel; clear: boolean };

export const IDLE_LIVE: LiveState = Object.freeze({
  running: false,
  step: 0,
  streamText: '',
  pendingThought: '',
  tools: [],
  compacting: null,
  turnTokens: 0,
  answerShown: '',
  thinking: '',
  native: false,
});

export function formatTokens(count: number): string {
  return Math.round(count).toLocaleString('en-US');
}
