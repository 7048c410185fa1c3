/**
 * Maps mca's provider-neutral ModelRequest onto an OpenAI chat completions body. The layers keep their
 * order: system segments (L1, L2) become one system message, user segments (L3, input, scratchpad, todo
 * recap) one user message. In native tool use the `tools` are function definitions and the current turn follows
 * as assistant messages with `tool_calls` and one `tool` message per result (paired by `tool_call_id`); the tail
 * (todo recap) is a last user message. OpenAI-compatible servers cache prompt prefixes on their own, so the
 * segments' cache breakpoints have no counterpart here; a stable prefix is what makes their caching work.
 */
import type { ImagePart, ModelRequest, PromptSegment, ToolSpec, TurnMessage } from './types.js';

/** Some servers reject a message without content; this stands in when the agent sends nothing at all. */
const EMPTY_USER_TEXT = '(no input)';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A part of a user message's content when it carries images (OpenAI's vision input). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatCompletionBody {
  model: string;
  stream: true;
  /** Asks for a final chunk with the usage counters (OpenAI and most compatible servers honour it). */
  stream_options: { include_usage: true };
  max_tokens?: number;
  /** Reasoning models (o-series, gpt-5) refuse `max_tokens` and take this instead. */
  max_completion_tokens?: number;
  stop?: string[];
  temperature?: number;
  messages: ChatMessage[];
  tools?: ChatTool[];
}

/**
 * OpenAI's reasoning models reject `max_tokens` and `stop` with a 400 (o1, o3, o4-mini, gpt-5 …, also behind a
 * routing prefix such as `openai/`).
 */
export function isReasoningModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return /^(o\d|gpt-5)/.test(name);
}

/** Non-empty segments joined with a blank line. */
export function joinSegments(segments: readonly PromptSegment[]): string {
  return segments
    .map((segment) => segment.text)
    .filter((text) => text.length > 0)
    .join('\n\n');
}

/** An image as a data URL part. */
export function toImageUrlPart(image: ImagePart): ChatContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

/** A user message's content: a string, or text and image parts when any segment carries images. */
function userContent(segments: readonly PromptSegment[], empty: string): string | ChatContentPart[] {
  const text = joinSegments(segments);
  const images = segments.flatMap((segment) => segment.images ?? []);
  if (images.length === 0) return text.length > 0 ? text : empty;
  const parts: ChatContentPart[] = text.length > 0 ? [{ type: 'text', text }] : [];
  return [...parts, ...images.map(toImageUrlPart)];
}

/**
 * A tool message can carry only text in the chat completions API, so the images of a reply's results follow its
 * tool messages as one user message, each image introduced by the id of the call that returned it.
 */
function resultImagesMessage(message: Extract<TurnMessage, { role: 'user' }>): ChatMessage | undefined {
  const parts: ChatContentPart[] = [];
  for (const result of message.results) {
    const images = result.images ?? [];
    if (images.length === 0) continue;
    parts.push({ type: 'text', text: `Images returned by tool call ${result.id}:` }, ...images.map(toImageUrlPart));
  }
  return parts.length > 0 ? { role: 'user', content: parts } : undefined;
}

function toChatTool(spec: ToolSpec): ChatTool {
  return {
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  };
}

function toChatMessages(message: TurnMessage): ChatMessage[] {
  if (message.role === 'assistant') {
    const content = message.text.trim() === '' ? null : message.text;
    if (message.calls.length === 0) return [{ role: 'assistant', content: content ?? '(empty reply)' }];
    const toolCalls = message.calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: {
        name: call.name,
        arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
      },
    }));
    return [{ role: 'assistant', content, tool_calls: toolCalls }];
  }
  const messages: ChatMessage[] = message.results.map((result) => ({
    role: 'tool',
    tool_call_id: result.id,
    content: result.content === '' ? '(no output)' : result.content,
  }));
  const images = resultImagesMessage(message);
  if (images !== undefined) messages.push(images);
  if (message.text !== undefined && message.text !== '') messages.push({ role: 'user', content: message.text });
  return messages;
}

export function toChatCompletionBody(request: ModelRequest): ChatCompletionBody {
  const system = joinSegments(request.system);
  const messages: ChatMessage[] = [];
  if (system.length > 0) messages.push({ role: 'system', content: system });
  messages.push({ role: 'user', content: userContent(request.user, EMPTY_USER_TEXT) });
  for (const message of request.turn ?? []) messages.push(...toChatMessages(message));
  const tail = joinSegments(request.tail ?? []);
  if (tail.length > 0) messages.push({ role: 'user', content: tail });
  const reasoning = isReasoningModel(request.model);
  const body: ChatCompletionBody = {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    ...(reasoning ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    messages,
  };
  if (request.tools !== undefined && request.tools.length > 0) body.tools = request.tools.map(toChatTool);
  // An empty `stop` array is rejected by some servers, so the key is left out instead.
  if (!reasoning && request.stopSequences && request.stopSequences.length > 0) body.stop = [...request.stopSequences];
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

/** The characters of a body's messages, for a usage estimate when the server sends none. */
export function promptChars(body: ChatCompletionBody): number {
  const chars = (content: string | ChatContentPart[] | null): number =>
    typeof content === 'string' || content === null
      ? (content?.length ?? 0)
      : content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  return body.messages.reduce((sum, message) => sum + chars(message.content), 0);
}
