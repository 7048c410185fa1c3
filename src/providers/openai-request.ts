/**
 * Maps mca's provider-neutral ModelRequest onto an OpenAI chat completions body. The layers keep their
 * order: system segments (L1, L2) become one system message, user segments (L3, input, scratchpad, todo
 * recap) one user message. OpenAI-compatible servers cache prompt prefixes on their own, so the segments'
 * cache breakpoints have no counterpart here; a stable prefix is what makes their caching work.
 */
import type { ModelRequest, PromptSegment } from './types.js';

/** Some servers reject a message without content; this stands in when the agent sends nothing at all. */
const EMPTY_USER_TEXT = '(no input)';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatCompletionBody {
  model: string;
  stream: true;
  /** Asks for a final chunk with the usage counters (OpenAI and most compatible servers honour it). */
  stream_options: { include_usage: true };
  max_tokens: number;
  stop?: string[];
  temperature?: number;
  messages: ChatMessage[];
}

/** Non-empty segments joined with a blank line. */
export function joinSegments(segments: readonly PromptSegment[]): string {
  return segments
    .map((segment) => segment.text)
    .filter((text) => text.length > 0)
    .join('\n\n');
}

export function toChatCompletionBody(request: ModelRequest): ChatCompletionBody {
  const system = joinSegments(request.system);
  const user = joinSegments(request.user);
  const messages: ChatMessage[] = [];
  if (system.length > 0) messages.push({ role: 'system', content: system });
  messages.push({ role: 'user', content: user.length > 0 ? user : EMPTY_USER_TEXT });
  const body: ChatCompletionBody = {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: request.maxTokens,
    messages,
  };
  // An empty `stop` array is rejected by some servers, so the key is left out instead.
  if (request.stopSequences && request.stopSequences.length > 0) body.stop = [...request.stopSequences];
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}
