/** What every replayed context strategy implements, and the pieces all of them share. */
import type { Segment } from './prefix-cache.js';
import type { MappedAction } from './action-map.js';
import type { RecordedCall } from './trajectory.js';

/** `mca` replays the text protocol (spec E1); `mca-native` the same engine with native tool use. */
export type StrategyName = 'naive' | 'claude-code' | 'codex' | 'opencode' | 'gemini-cli' | 'mca' | 'mca-native';

/** One recorded model step as replayed: the model's text and what it did. */
export interface ReplayStep {
  /** The recorded assistant text (the model's thought). */
  thought: string;
  /** The mapped action and its recorded result; undefined for the final step (answer / submit). */
  action?: MappedAction;
  /** Final step only: the recorded final command or text, used as the answer. */
  answer?: string;
  /** The recorded tool call as the recorded agent sent it (`tool {json input}`); chat strategies replay this. */
  recordedCall?: string;
  /** The recorded call itself (for the memory figure's path extraction). */
  call?: RecordedCall;
}

/** One user turn: what the person typed, then the model steps that answered it. */
export interface ReplayTurn {
  text: string;
  steps: ReplayStep[];
}

/** One recorded session as replayed: its task (as a person types it) and its user turns (the first is the task). */
export interface ReplayTask {
  name: string;
  task: string;
  turns: ReplayTurn[];
}

export interface ModelCall {
  /** System segments first, then the conversation's, in request order. */
  segments: Segment[];
  /** Estimated tokens of the whole request (floor(chars / 3)). */
  tokens: number;
}

/**
 * What happened while a strategy prepared a request, besides the request itself:
 * - `summary`: a summary model call with its real request (priced like any call) and its output size;
 * - `compaction`: conversation content left the prompt (with or without a summary);
 * - `degradation`: content was shrunk or dropped without a model call (pruning, masking, mca's ladder).
 */
export type StrategyEvent =
  | { kind: 'summary'; segments: Segment[]; outputTokens: number }
  | { kind: 'compaction' }
  | { kind: 'degradation'; detail: string };

export interface Strategy {
  readonly name: StrategyName;
  /** A user turn starts with this text (the task, or a follow-up); may compact first. */
  startTurn(text: string): Promise<StrategyEvent[]>;
  /** The request of the next model call and what happened while preparing it. */
  nextCall(): Promise<{ call: ModelCall; events: StrategyEvent[] }>;
  /** The model replied with `step` to `call`; returns the reply's output tokens as this strategy formats it. */
  record(step: ReplayStep, call: ModelCall): number;
  /** The turn's last step was recorded. */
  endTurn(): void;
}

export interface StrategyOptions {
  contextWindow: number;
  /** L1: the same system text for every strategy. */
  systemText: string;
  /** The model's output limit, for the peers whose thresholds subtract it (BENCHMARKS.md "Model profile"). */
  maxOutputTokens: number;
}

/** Tokens of the deterministic stand-in summary (the bench never calls a model). The same for every strategy. */
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
