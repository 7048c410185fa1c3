/** What every replayed context strategy implements, and the pieces all of them share. */
import type { Segment } from './prefix-cache.js';
import type { MappedAction } from './action-map.js';

export type StrategyName = 'naive' | 'full-then-compact' | 'mca' | 'mca-read100';

/** One recorded model step as replayed: the model's text and what it did. */
export interface ReplayStep {
  /** The recorded assistant text (the model's thought). */
  thought: string;
  /** The mapped action and its recorded result; undefined for the final step (answer / submit). */
  action?: MappedAction;
  /** Final step only: the recorded final command or text, used as the answer. */
  answer?: string;
  /** The recorded tool call as the recorded agent sent it (`tool {json input}`); baselines replay this. */
  recordedCall?: string;
}

export interface ReplayTask {
  name: string;
  task: string;
  steps: ReplayStep[];
}

export interface ModelCall {
  /** System segments first, then the conversation's, in request order. */
  segments: Segment[];
  /** Estimated tokens of the whole request (floor(chars / 3)). */
  tokens: number;
  /** Milliseconds spent assembling the request (mca: ContextBuilder.build). */
  buildMs: number;
}

export interface Strategy {
  readonly name: StrategyName;
  /** A new task (round) starts with this user text. */
  startTask(task: string): Promise<void>;
  /** The request of the next model call; may compact first. */
  nextCall(): Promise<ModelCall>;
  /** The model replied with `step` to `call` (its action's observation is recorded with it). */
  record(step: ReplayStep, call: ModelCall): void;
  /** The task's last step was recorded. */
  endTask(): void;
  /** Compactions run so far. */
  readonly compactions: number;
}

export interface StrategyOptions {
  contextWindow: number;
  /** L1: the same system text for every strategy. */
  systemText: string;
}

/** Tokens of the deterministic stand-in summary (the bench never calls a model). */
export const STAND_IN_SUMMARY_TOKENS = 1_500;

/**
 * The stand-in for a model-written summary: the A5 heading, what it archived, then filler to exactly
 * STAND_IN_SUMMARY_TOKENS × 3 characters. It retains no facts; it only has a realistic, fixed size.
 */
export function standInSummary(archivedMessages: number, label: string): string {
  const head = `## 📌 Archived Session Summary\n(bench stand-in for ${label}: ${archivedMessages} messages archived)\n`;
  const size = STAND_IN_SUMMARY_TOKENS * 3;
  const filler = '- completed work, decisions, file paths and errors learned would be listed here.\n';
  return (head + filler.repeat(Math.ceil(size / filler.length))).slice(0, size);
}

/** Characters of a request. */
export function charsOf(segments: readonly Segment[]): number {
  let chars = 0;
  for (const segment of segments) chars += segment.text.length;
  return chars;
}
