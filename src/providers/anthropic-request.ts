/**
 * Maps mca's provider-neutral ModelRequest onto the Anthropic Messages API body.
 * L1/L2 arrive as `system` segments and become system text blocks; everything else arrives as `user`
 * segments and becomes ONE user message with one text block per segment.
 */
import type { MessageCreateParamsStreaming, TextBlockParam } from '@anthropic-ai/sdk/resources/messages/messages.js';
import type { ModelRequest, PromptSegment } from './types.js';

/** The API accepts at most four cache_control breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The API rejects a message without content; this stands in when the agent sends nothing at all. */
const EMPTY_USER_TEXT = '(no input)';

interface Block {
  text: string;
  cacheBreakpoint: boolean;
}

/**
 * Empty text blocks are rejected by the API, so they are dropped; a breakpoint set on a dropped
 * segment moves to the nearest earlier kept block, which ends the same prefix.
 */
function toBlocks(segments: readonly PromptSegment[]): Block[] {
  const blocks: Block[] = [];
  for (const segment of segments) {
    if (segment.text.length === 0) {
      const previous = blocks[blocks.length - 1];
      if (segment.cacheBreakpoint && previous) previous.cacheBreakpoint = true;
      continue;
    }
    blocks.push({ text: segment.text, cacheBreakpoint: segment.cacheBreakpoint === true });
  }
  return blocks;
}

/** Keeps only the last `MAX_CACHE_BREAKPOINTS` breakpoints across system then user blocks. */
function limitBreakpoints(ordered: Block[]): void {
  let kept = 0;
  for (let index = ordered.length - 1; index >= 0; index--) {
    const block = ordered[index];
    if (!block?.cacheBreakpoint) continue;
    if (kept < MAX_CACHE_BREAKPOINTS) kept++;
    else block.cacheBreakpoint = false;
  }
}

function toTextBlock(block: Block): TextBlockParam {
  return block.cacheBreakpoint
    ? { type: 'text', text: block.text, cache_control: { type: 'ephemeral' } }
    : { type: 'text', text: block.text };
}

/**
 * This SDK's types no longer list `temperature`, but the Messages API still takes it for models that
 * support it and the SDK sends the body as given, so it is added here only when the caller set it.
 */
export type AnthropicStreamParams = MessageCreateParamsStreaming & { temperature?: number };

export function toMessageParams(request: ModelRequest): AnthropicStreamParams {
  const system = toBlocks(request.system);
  const user = toBlocks(request.user);
  if (user.length === 0) user.push({ text: EMPTY_USER_TEXT, cacheBreakpoint: false });
  limitBreakpoints([...system, ...user]);

  const params: AnthropicStreamParams = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: [{ role: 'user', content: user.map(toTextBlock) }],
    stream: true,
  };
  if (system.length > 0) params.system = system.map(toTextBlock);
  const stops = (request.stopSequences ?? []).filter((stop) => stop.trim().length > 0);
  if (stops.length > 0) params.stop_sequences = stops;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  return params;
}
