/**
 * The one seam between the bench and mca's context engine. Everything the bench needs from the engine is this
 * interface: given the conversation so far and the next step, what request goes out and which compactions,
 * summary calls and degradations happen. `McaStrategy` (mca-strategy.ts) drives it and never reaches past it.
 *
 * `ContextEngineAdapter` (engine-adapter.ts) implements it over src/context/context-engine.ts, the same engine the
 * agent loop drives; no copy of its orchestration exists (test/bench/engine-parity.test.ts checks both send the
 * same requests).
 */
import type { RoundEnd } from '../../../src/context/message.js';
import type { Summarizer } from '../../../src/context/summary-compressor.js';
import type { ToolEnvelope } from '../../../src/tools/registry/envelope.js';
import type { Segment } from '../prefix-cache.js';
import type { StrategyEvent } from '../strategy.js';
import { ContextEngineAdapter } from './engine-adapter.js';

export interface PreparedRequest {
  /** The request in order (system parts first), each part with its cache breakpoint as the provider sends it. */
  segments: Segment[];
  /** The engine's own estimate of the request (what its window check used). */
  tokens: number;
  /** Compactions and degradations that happened while preparing it (summary calls come from the summarizer). */
  events: StrategyEvent[];
}

export interface RecordedStep {
  /** The model's reply text as mca stores it (`Thought: …\nAction: Tool[{…}]` or `…Finish[…]`). */
  reply: string;
  /** Native tool use: the reply's own text beside its call (the thought, without protocol labels). */
  nativeText?: string;
  /** The tool call and its full result; undefined for a final answer. */
  action?: { tool: string; input: Record<string, unknown>; envelope: ToolEnvelope };
  /** What the API reported for this call: the request's tokens and the reply's. */
  usage: { inputTokens: number; outputTokens: number };
}

export interface ReplayContextEngine {
  /** A user turn starts with this text; the engine may compact first. */
  beginTurn(input: string): Promise<StrategyEvent[]>;
  /** The request of the next model call of this turn. */
  prepareStep(): Promise<PreparedRequest>;
  /** The model's reply and its tool result, as the loop records them. */
  recordStep(step: RecordedStep): void;
  /** The turn ended (`finish` after a final answer; `answer` when the person speaks after a tool step). */
  closeTurn(reason: RoundEnd): void;
}

export interface ReplayEngineOptions {
  contextWindow: number;
  systemText: string;
  /** The model's output limit (the engine lowers a request's max_tokens to what the window leaves). */
  maxOutputTokens: number;
  /** Archives old rounds; the bench passes a RecordingSummarizer so every summary call is priced. */
  summarizer: Summarizer;
  /** The tool protocol whose requests are measured (default `text`). */
  protocol?: 'native' | 'text';
}

/** The single place that decides which engine the bench's mca strategy drives. */
export function createReplayEngine(options: ReplayEngineOptions): ReplayContextEngine {
  return new ContextEngineAdapter(options);
}
