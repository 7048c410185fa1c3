import type { Usage } from '../providers/types.js';

export type Role = 'user' | 'assistant' | 'tool' | 'summary';

/** Why a round closed. The message carrying `roundEnd` is the last one of its round. */
export type RoundEnd = 'finish' | 'answer' | 'error' | 'interrupted' | 'step_limit';

/** A tool invocation as the model wrote it. */
export interface ToolAction {
  tool: string;
  input: unknown;
}

export interface MessageMetadata {
  /** 1-based round number. Numbers keep growing across compactions; a summary carries the last round it covers. */
  round: number;
  /** 1-based step inside the round (assistant and tool messages). */
  step?: number;
  /** ISO time the message was written. */
  ts: string;
  /** Tool messages: the tool that produced the result. */
  toolName?: string;
  /** Assistant steps: the action they request; tool messages: the action they answer. */
  action?: ToolAction;
  /** Set on the message that closes its round. */
  roundEnd?: RoundEnd;
  /**
   * The id of the call an assistant step makes and its tool message answers: the native tool_use id, or one
   * generated when the text protocol parsed the action. Absent in session files written before ids existed.
   */
  callId?: string;
  /** Assistant messages: the usage of the model call that produced them. */
  usage?: Usage;
  /** Summaries: first and last round archived. */
  coversRounds?: [number, number];
  /**
   * Summaries: the usage of the model calls whose messages this entry archived, per model ('' = not recorded):
   * the session's cost survives compaction and resume (archived-usage.ts).
   */
  archivedUsage?: Record<string, Usage>;
  /**
   * Tool messages: model usage the tool spent on its own (an Agent call's subagent), per model ('' = unknown). It
   * counts toward the session's cost like an assistant's `usage` (and is archived with it), but never toward the
   * context size. Absent in files written before subagent usage was stored.
   */
  carriedUsage?: Record<string, Usage>;
  /**
   * The last message a conversation rewind kept: the usage of the model calls whose messages the rewind removed,
   * per model ('' = not recorded). The money was spent, so it counts toward the session's cost (and is archived
   * like any usage), but never toward the context size (archived-usage.ts).
   */
  rewoundUsage?: Record<string, Usage>;
  /** Tool messages shrunk to a one-line form by the degradation ladder. */
  shrunk?: boolean;
  /**
   * Tool messages: the tool-memory reference of the full result (also inside the compressed JSON). While the
   * message is not `compressed` (or `shrunk`), the prompt shows the full result it names (DESIGN.md "No forgetting
   * without pressure"); absent in files written before engine v4, which then show the stored form.
   */
  ref?: string;
  /** Tool messages: a compaction decided this result shows its stored (compressed) form, not the full result. */
  compressed?: boolean;
  /**
   * Set by compaction on retained messages that carry `usage`: that usage measured the context before the
   * compaction, so it no longer predicts the next call's size (the HistoryManager's lastUsage skips it).
   */
  usageSuperseded?: boolean;
}

export interface Message {
  role: Role;
  content: string;
  metadata: MessageMetadata;
}

/** A round: its user message, the assistant steps and tool results that followed it. */
export interface Round {
  round: number;
  messages: Message[];
  closed: boolean;
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function isSummary(message: Message): boolean {
  return message.role === 'summary';
}

/**
 * Groups messages into rounds, in order. A user message opens a round; the round is closed once one of its
 * messages carries `metadata.roundEnd`. Summaries are not rounds and are skipped. A non-summary message that
 * arrives with no round open (only possible in a corrupt history) opens a headless round of its own, so no
 * message is ever lost by grouping.
 */
export function toRounds(messages: readonly Message[]): Round[] {
  const rounds: Round[] = [];
  let current: Round | undefined;
  for (const message of messages) {
    if (isSummary(message)) continue;
    if (message.role === 'user' || current === undefined || current.closed) {
      current = { round: message.metadata.round, messages: [], closed: false };
      rounds.push(current);
    }
    current.messages.push(message);
    if (message.metadata.roundEnd !== undefined) current.closed = true;
  }
  return rounds;
}

/** The highest round number a message refers to: its own round, or the last round a summary covers. */
export function lastRoundOf(message: Message): number {
  const covered = message.metadata.coversRounds?.[1] ?? 0;
  return Math.max(message.metadata.round, covered);
}
