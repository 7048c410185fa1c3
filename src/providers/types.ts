/** The contract between the agent and any model backend. Nothing here knows about mca's prompt layers. */
import type { ImagePart } from '../text/image-part.js';

export type { ImagePart };

/** All four Anthropic usage counters. With prompt caching, inputTokens is only the uncached part. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** The model that made the call (set by the agent): a call is priced at its own model's rates, whatever comes later. */
  model?: string;
  /**
   * Set when the counters above add up several requests of one reply (a continued `pause_turn`): the context the
   * last of them occupied (its input, uncached, cache read and cache write, plus its output). The counters stay the
   * sums (each request is billed); the context size reads this (totalUsageTokens), since every request resent the
   * same prompt. addUsage drops it: a sum of replies has no single last request.
   */
  windowTokens?: number;
}

/** The four counters of a Usage, for code that walks them (sums, checks of stored values). */
export const USAGE_COUNTERS = [
  'inputTokens',
  'outputTokens',
  'cacheCreationInputTokens',
  'cacheReadInputTokens',
] as const;

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

/**
 * The whole context a call occupied: what the next call's prompt will at least be. For a reply of several requests
 * that is its last request's (`windowTokens`), not the sum; a stored value that is not a finite non-negative number
 * (a hand-edited session file) is ignored.
 */
export function totalUsageTokens(usage: Usage): number {
  const window = usage.windowTokens;
  if (typeof window === 'number' && Number.isFinite(window) && window >= 0) return window;
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens + usage.outputTokens;
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
  };
}

/** A piece of prompt text. `cacheBreakpoint` marks the end of a prefix the provider should cache. */
export interface PromptSegment {
  text: string;
  cacheBreakpoint?: boolean;
  /** Images that follow the text (the current request's attachments); only user segments carry them. */
  images?: readonly ImagePart[];
}

/** A tool the model may call natively: its name, prose and the JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One native tool call of a reply. `input` is what the model sent (a JSON object when well formed). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** The result of one native call, paired with it by `id`. */
export interface ToolResultBlock {
  id: string;
  content: string;
  isError: boolean;
  /** Images the tool returned (Read of an image, an MCP image result), seen in full in the current turn only. */
  images?: readonly ImagePart[];
}

/**
 * One message of the current turn in native tool use, after the `user` segments: the model's reply (its text,
 * thinking and calls) or the results of the calls before it, in the calls' order. A user message without
 * results carries `text` (an observation answering a reply that made no call, e.g. one cut at the output limit).
 */
export type TurnMessage =
  | { role: 'assistant'; text: string; calls: ToolCall[]; thinking?: ThinkingBlock[] }
  | { role: 'user'; results: ToolResultBlock[]; text?: string; cacheBreakpoint?: boolean };

/** An extended-thinking block, passed back unchanged within the turn as the API requires. */
export interface ThinkingBlock {
  thinking: string;
  signature: string;
}

/**
 * The provider's own web search (Anthropic's `web_search` server tool): the API runs the searches inside the
 * reply, so nothing comes back for mca to execute. Only offered when the provider has one (`serverWebSearch`).
 */
export interface WebSearchOptions {
  maxUses: number;
  allowedDomains?: string[];
  blockedDomains?: string[];
}

/** One search the provider ran during a reply: what was asked and what came back (titles and URLs only). */
export interface WebSearchRun {
  query: string;
  results: Array<{ title: string; url: string }>;
  /** The API's error code when the search failed (`max_uses_exceeded`, `unavailable`, …). */
  error?: string;
}

export interface ModelRequest {
  model: string;
  /** Stable instructions (mca: L1 system+tools, L2 CODE_LAW). */
  system: PromptSegment[];
  /** The conversation as one user message (mca: L3, current input, scratchpad, todo recap). */
  user: PromptSegment[];
  /** Native tool use: the tools the model may call (absent: the text protocol). */
  tools?: ToolSpec[];
  /** Native tool use: this turn's replies and results, after the `user` message. */
  turn?: TurnMessage[];
  /** Native tool use: text that follows the newest results (the todo recap), in the last user message. */
  tail?: PromptSegment[];
  /** Native tool use: offer the provider's server-side web search (absent: not offered). */
  webSearch?: WebSearchOptions;
  /** Extended thinking budget in tokens (Anthropic, native only). */
  thinkingBudget?: number;
  maxTokens: number;
  stopSequences?: string[];
  temperature?: number;
}

export type StopReason = 'end_turn' | 'stop_sequence' | 'max_tokens' | 'tool_use' | 'refusal' | 'other';

export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'thinking_block'; block: ThinkingBlock }
  | { type: 'web_search'; search: WebSearchRun }
  /** `maxRetries` and `status` (the HTTP status that failed, when there was one) feed stream-json's `api_retry`. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string; maxRetries?: number; status?: number }
  /** The call moves to another model (`--fallback-model`): `from` failed for good with `reason`; `to` is tried next. */
  | { type: 'model_fallback'; from: string; to: string; reason: string }
  | { type: 'done'; stopReason: StopReason; usage: Usage };

/**
 * A model backend. `stream` yields text deltas, then exactly one `done`.
 * Failures are thrown as ProviderError (src/providers/provider-error.ts); an aborted signal ends the
 * iteration with a ProviderError of kind 'aborted'.
 */
export interface ModelProvider {
  readonly name: string;
  /** The provider can search the web on its side (`ModelRequest.webSearch`); absent: it cannot. */
  readonly serverWebSearch?: boolean;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

export interface Completion {
  text: string;
  stopReason: StopReason;
  usage: Usage;
}

/** Drains a stream into one completion (used for summaries, where nothing is shown live). */
export async function complete(
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<Completion> {
  let text = '';
  for await (const event of provider.stream(request, signal)) {
    if (event.type === 'text') text += event.text;
    if (event.type === 'done') return { text, stopReason: event.stopReason, usage: event.usage };
  }
  return { text, stopReason: 'other', usage: { ...ZERO_USAGE } };
}
