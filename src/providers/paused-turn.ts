/**
 * A turn the Anthropic API paused (`stop_reason: "pause_turn"`): with server tools (web search) the API runs its
 * own loop inside one reply and may stop a long one early. The documented way on is to send the same request again
 * with the paused reply's content appended as an assistant message, unchanged (the `server_tool_use` and
 * `web_search_tool_result` blocks with their opaque `encrypted_content`, the text with its citations, the thinking
 * with its signature); the API then continues that assistant turn. `PausedContent` rebuilds that content from the
 * stream's events; `continuation` builds the next request's body. The blocks only live for the continuation: the
 * history keeps the reply as text (src/providers/content-blocks.ts).
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages/messages.js';
import type { AnthropicStreamParams } from './anthropic-request.js';
import { parseToolInput } from './content-blocks.js';

/** Continuations of one model call before mca stops and says so (each is a full, billed request). */
export const MAX_PAUSE_CONTINUATIONS = 5;
/**
 * The paused content is resent with every continuation; a server that sends more than this (characters of block
 * JSON, all continuations together) is not continued.
 */
export const MAX_PAUSED_CONTENT_CHARS = 8 * 1024 * 1024;

interface OpenBlock {
  index: number;
  block: Record<string, unknown>;
  /** Text of a `text` block, thinking of a `thinking` block, input JSON of a (server) tool use. */
  text: string;
  signature: string;
  citations: unknown[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Records one reply's content blocks in index order, as they will be sent back. It keeps at most
 * MAX_PAUSED_CONTENT_CHARS: past that it drops everything and reports `overflowed` (a reply that large is not
 * continued, so there is nothing to keep it for).
 */
export class PausedContent {
  private readonly blocks = new Map<number, OpenBlock>();
  private chars = 0;
  private over = false;

  /** The reply's content passed MAX_PAUSED_CONTENT_CHARS; nothing was kept. */
  get overflowed(): boolean {
    return this.over;
  }

  start(index: number, block: unknown): void {
    if (!isRecord(block) || typeof block.type !== 'string' || !this.spend(JSON.stringify(block).length)) return;
    this.blocks.set(index, { index, block: { ...block }, text: '', signature: '', citations: [] });
  }

  delta(index: number, delta: unknown): void {
    const open = this.blocks.get(index);
    if (open === undefined || !isRecord(delta)) return;
    const piece =
      delta.type === 'text_delta'
        ? delta.text
        : delta.type === 'thinking_delta'
          ? delta.thinking
          : delta.type === 'input_json_delta'
            ? delta.partial_json
            : undefined;
    if (typeof piece === 'string') {
      if (this.spend(piece.length)) open.text += piece;
    } else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
      if (this.spend(delta.signature.length)) open.signature += delta.signature;
    } else if (delta.type === 'citations_delta' && delta.citation !== undefined) {
      if (this.spend(JSON.stringify(delta.citation).length)) open.citations.push(delta.citation);
    }
  }

  private spend(chars: number): boolean {
    if (this.over) return false;
    this.chars += chars;
    if (this.chars <= MAX_PAUSED_CONTENT_CHARS) return true;
    this.over = true;
    this.blocks.clear();
    return false;
  }

  /** The blocks as the request takes them: in index order, with their streamed parts filled in. */
  content(): ContentBlockParam[] {
    const ordered = [...this.blocks.values()].sort((a, b) => a.index - b.index);
    const content: Array<Record<string, unknown>> = [];
    for (const { block, text, signature, citations } of ordered) {
      if (block.type === 'text') {
        const whole = `${typeof block.text === 'string' ? block.text : ''}${text}`;
        // The API refuses an empty text block; a reply that only searched opens one and writes nothing.
        if (whole === '') continue;
        const cited = [...(Array.isArray(block.citations) ? (block.citations as unknown[]) : []), ...citations];
        content.push({ ...block, text: whole, ...(cited.length > 0 ? { citations: cited } : { citations: null }) });
      } else if (block.type === 'thinking') {
        const thought = `${typeof block.thinking === 'string' ? block.thinking : ''}${text}`;
        content.push({ ...block, thinking: thought, signature: `${String(block.signature ?? '')}${signature}` });
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        const input = text === '' ? block.input : parseToolInput(text);
        content.push({ ...block, input: isRecord(input) ? input : {} });
      } else {
        // Whole in its start event: web_search_tool_result, redacted_thinking, and any newer block type.
        content.push(block);
      }
    }
    // The SDK's param union is wider than its response blocks; these are the response's own blocks, sent back.
    return content as unknown as ContentBlockParam[];
  }
}

/**
 * The request that continues a paused turn: the original body with the paused content (every paused part of this
 * call so far, in order) as the last assistant message.
 */
export function continuation(
  params: AnthropicStreamParams,
  paused: readonly ContentBlockParam[],
  encode: (body: unknown) => Buffer,
): Buffer {
  if (paused.length === 0) return encode(params);
  // mca's requests end with a user message (the prompt or the newest results); the paused reply answers it.
  const messages: MessageParam[] = [...params.messages, { role: 'assistant', content: [...paused] }];
  return encode({ ...params, messages });
}

/** The line that ends a call mca stopped continuing; the model and the user read it as the reply's last words. */
export function pauseLimitText(reason: 'count' | 'size'): string {
  const why =
    reason === 'count'
      ? `the API paused it ${MAX_PAUSE_CONTINUATIONS + 1} times`
      : `the paused content passed ${MAX_PAUSED_CONTENT_CHARS / 1024 / 1024} MiB`;
  return `\n\n(mca stopped continuing this reply: ${why}. Ask again to go on from here.)`;
}
