/**
 * Reads one chat.completion.chunk of an OpenAI-compatible stream without trusting its shape: text from
 * `choices[0].delta.content`, `finish_reason`, the usage counters of the final chunk, or an error.
 */
import type { StopReason, Usage } from './types.js';

/** One piece of a streamed tool call: the first piece of a call carries its id and name. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

export interface ParsedChunk {
  text: string;
  toolCalls: ToolCallDelta[];
  finishReason: string | undefined;
  usage: Usage | undefined;
  /** The chunk's `error` member, when the server reports a failure inside the stream. */
  error: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * OpenAI counts cached prompt tokens inside `prompt_tokens` (`prompt_tokens_details.cached_tokens`);
 * mca's Usage keeps them apart, as Anthropic does. DeepSeek names them `prompt_cache_hit_tokens`.
 */
export function toUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = count(value.prompt_tokens);
  const details = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const cached = Math.min(prompt, count(details.cached_tokens) || count(value.prompt_cache_hit_tokens));
  return {
    inputTokens: prompt - cached,
    outputTokens: count(value.completion_tokens),
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}

function toolCallDeltas(value: unknown): ToolCallDelta[] {
  if (!Array.isArray(value)) return [];
  const deltas: ToolCallDelta[] = [];
  value.forEach((entry: unknown, position) => {
    if (!isRecord(entry)) return;
    const fn = isRecord(entry.function) ? entry.function : {};
    deltas.push({
      index: typeof entry.index === 'number' && Number.isInteger(entry.index) ? entry.index : position,
      ...(typeof entry.id === 'string' && entry.id !== '' ? { id: entry.id } : {}),
      ...(typeof fn.name === 'string' && fn.name !== '' ? { name: fn.name } : {}),
      arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
    });
  });
  return deltas;
}

/** Throws a SyntaxError for a payload that is not JSON; the caller maps it. */
export function parseChunk(data: string): ParsedChunk {
  const value: unknown = JSON.parse(data);
  const chunk = isRecord(value) ? value : {};
  const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
  const choice = isRecord(choices[0]) ? choices[0] : {};
  const delta = isRecord(choice.delta) ? choice.delta : {};
  return {
    text: typeof delta.content === 'string' ? delta.content : '',
    toolCalls: toolCallDeltas(delta.tool_calls),
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined,
    usage: toUsage(chunk.usage),
    error: chunk.error ?? undefined,
  };
}

/** OpenAI reports a stop sequence and a natural end alike as 'stop'. */
export function toStopReason(finishReason: string | undefined): StopReason {
  if (finishReason === 'stop') return 'end_turn';
  if (finishReason === 'length') return 'max_tokens';
  if (finishReason === 'tool_calls' || finishReason === 'function_call') return 'tool_use';
  return 'other';
}
