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
  /** Assistant messages: the usage of the model call that produced them. */
  usage?: Usage;
  /** Summaries: first and last round archived. */
  coversRounds?: [number, number];
  /** Tool messages shrunk to a one-line form by the degradation ladder. */
  shrunk?: boolean;
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
