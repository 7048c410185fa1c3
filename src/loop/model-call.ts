/**
 * One model call of one step: streams the reply, turning provider events into AgentEvents. The outcome is a
 * value; ProviderErrors are caught here so the loop decides what a failure means for the round.
 */
import { isProviderError, ProviderError } from '../providers/provider-error.js';
import type { ModelProvider, ModelRequest, StopReason, ThinkingBlock, ToolCall, Usage } from '../providers/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import type { AgentEvent } from './events.js';

export type ModelCallOutcome =
  | {
      ok: true;
      text: string;
      stopReason: StopReason;
      usage: Usage;
      /** Native tool use: the reply's calls in the order written, and its thinking blocks. */
      calls: ToolCall[];
      thinking: ThinkingBlock[];
    }
  | { ok: false; error: ProviderError; partialText: string };

function toProviderError(error: unknown, signal: AbortSignal): ProviderError {
  if (isProviderError(error)) return error;
  if (signal.aborted) return new ProviderError('aborted', 'The request was interrupted.');
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('network', `Model request failed: ${message.split('\n')[0] ?? message}`);
}

/** Streams one call; yields text/retry events and returns the outcome (generator return value). */
export async function* streamModelCall(
  provider: ModelProvider,
  request: ModelRequest,
  step: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, ModelCallOutcome> {
  let text = '';
  let calls: ToolCall[] = [];
  let thinking: ThinkingBlock[] = [];
  try {
    for await (const event of provider.stream(request, signal)) {
      if (event.type === 'text') {
        text += event.text;
        yield { type: 'text_delta', step, text: event.text };
      } else if (event.type === 'thinking') {
        yield { type: 'thinking_delta', step, text: event.text };
      } else if (event.type === 'tool_call') {
        calls.push(event.call);
      } else if (event.type === 'thinking_block') {
        thinking.push(event.block);
      } else if (event.type === 'web_search') {
        const { query, results, error } = event.search;
        yield { type: 'web_search', step, query, results: results.length, ...(error ? { error } : {}) };
      } else if (event.type === 'retry') {
        text = '';
        calls = [];
        thinking = [];
        const { type: _type, ...retry } = event;
        yield { type: 'retry', step, ...retry };
      } else if (event.type === 'model_fallback') {
        text = '';
        calls = [];
        thinking = [];
        yield { type: 'model_fallback', step, from: event.from, to: event.to, reason: event.reason };
      } else {
        return { ok: true, text, stopReason: event.stopReason, usage: event.usage, calls, thinking };
      }
    }
    if (signal.aborted) return { ok: false, error: toProviderError(undefined, signal), partialText: text };
    return { ok: true, text, stopReason: 'other', usage: { ...ZERO_USAGE }, calls, thinking };
  } catch (error) {
    return { ok: false, error: toProviderError(error, signal), partialText: text };
  }
}
