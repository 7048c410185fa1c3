/**
 * Maps mca's provider-neutral ModelRequest onto the Anthropic Messages API body.
 * L1/L2 arrive as `system` segments and become system text blocks; everything else arrives as `user`
 * segments and becomes ONE user message with one text block per segment. In native tool use the `tools` follow,
 * and the current turn's replies (text, thinking, `tool_use`) and results (`tool_result`, `is_error`) come as
 * real assistant and user messages after that first user message; the tail (todo recap) ends the last one.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  WebSearchTool20250305,
} from '@anthropic-ai/sdk/resources/messages/messages.js';
import type { ImagePart, ModelRequest, PromptSegment, ToolSpec, TurnMessage, WebSearchOptions } from './types.js';

/** The API accepts at most four cache_control breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The API rejects a message without content; this stands in when the agent sends nothing at all. */
const EMPTY_USER_TEXT = '(no input)';

interface Block {
  text: string;
  cacheBreakpoint: boolean;
  /** Image blocks that follow the text block (the current request's attachments). */
  images?: readonly ImagePart[];
}

/** An image part as the Messages API takes it: a base64 source with its media type. */
export function toImageBlock(image: ImagePart): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } };
}

/**
 * Empty text blocks are rejected by the API, so they are dropped; a breakpoint set on a dropped
 * segment moves to the nearest earlier kept block, which ends the same prefix.
 */
function toBlocks(segments: readonly PromptSegment[]): Block[] {
  const blocks: Block[] = [];
  for (const segment of segments) {
    if (segment.images !== undefined && segment.images.length > 0) {
      blocks.push({ text: segment.text, cacheBreakpoint: segment.cacheBreakpoint === true, images: segment.images });
      continue;
    }
    if (segment.text.length === 0) {
      const previous = blocks[blocks.length - 1];
      if (segment.cacheBreakpoint && previous) previous.cacheBreakpoint = true;
      continue;
    }
    blocks.push({ text: segment.text, cacheBreakpoint: segment.cacheBreakpoint === true });
  }
  return blocks;
}

/** Keeps only the last `limit` breakpoints across system then user blocks. */
function limitBreakpoints(ordered: Block[], limit = MAX_CACHE_BREAKPOINTS): void {
  let kept = 0;
  for (let index = ordered.length - 1; index >= 0; index--) {
    const block = ordered[index];
    if (!block?.cacheBreakpoint) continue;
    if (kept < limit) kept++;
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
 * support it and the body is sent as built, so it is added here only when the caller set it.
 */
export type AnthropicStreamParams = MessageCreateParamsStreaming & { temperature?: number };

function toTool(spec: ToolSpec): Tool {
  return { name: spec.name, description: spec.description, input_schema: { type: 'object', ...spec.inputSchema } };
}

/** Anthropic's server tool: the API searches during the reply and streams the results back (content-blocks.ts). */
function webSearchTool(options: WebSearchOptions): WebSearchTool20250305 {
  return {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: options.maxUses,
    ...(options.allowedDomains && options.allowedDomains.length > 0 ? { allowed_domains: options.allowedDomains } : {}),
    ...(options.blockedDomains && options.blockedDomains.length > 0 ? { blocked_domains: options.blockedDomains } : {}),
  };
}

/** The API rejects an empty text block; a reply that wrote nothing but calls has no text block. */
const EMPTY_REPLY_TEXT = '(empty reply)';

/** A turn message as its content blocks; `Block`s stand for the text blocks that may carry a breakpoint. */
interface TurnContent {
  role: 'assistant' | 'user';
  blocks: Array<ContentBlockParam | Block>;
}

function turnContent(message: TurnMessage): TurnContent {
  if (message.role === 'assistant') {
    const blocks: Array<ContentBlockParam | Block> = (message.thinking ?? []).map((block) => ({
      type: 'thinking' as const,
      thinking: block.thinking,
      signature: block.signature,
    }));
    if (message.text.trim() !== '') blocks.push({ text: message.text, cacheBreakpoint: false });
    for (const call of message.calls) {
      const input =
        call.input !== null && typeof call.input === 'object' && !Array.isArray(call.input) ? call.input : {};
      blocks.push({ type: 'tool_use', id: call.id, name: call.name, input });
    }
    if (blocks.length === 0) blocks.push({ text: EMPTY_REPLY_TEXT, cacheBreakpoint: false });
    return { role: 'assistant', blocks };
  }
  const blocks: Array<ContentBlockParam | Block> = message.results.map((result) => {
    const text = result.content === '' ? '(no output)' : result.content;
    const images = result.images ?? [];
    return {
      type: 'tool_result' as const,
      tool_use_id: result.id,
      content: images.length === 0 ? text : [{ type: 'text' as const, text }, ...images.map(toImageBlock)],
      ...(result.isError ? { is_error: true } : {}),
    };
  });
  if (message.text !== undefined && message.text !== '') blocks.push({ text: message.text, cacheBreakpoint: false });
  if (blocks.length === 0) blocks.push({ text: EMPTY_USER_TEXT, cacheBreakpoint: false });
  if (message.cacheBreakpoint) {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && 'cacheBreakpoint' in last) last.cacheBreakpoint = true;
    else if (last !== undefined)
      blocks[blocks.length - 1] = { ...last, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
  }
  return { role: 'user', blocks };
}

function isTextBlock(block: ContentBlockParam | Block): block is Block {
  return 'cacheBreakpoint' in block;
}

/** Counts breakpoints set on non-text turn blocks (the newest tool_result) so the limit covers them too. */
function hasCacheControl(block: ContentBlockParam): boolean {
  return 'cache_control' in block && block.cache_control !== undefined && block.cache_control !== null;
}

/** A text block and the images after it; a block of images alone has no (empty, refused) text block. */
function userBlocks(block: Block): ContentBlockParam[] {
  const images = (block.images ?? []).map(toImageBlock);
  return block.text === '' ? images : [toTextBlock(block), ...images];
}

function toContent(blocks: Array<ContentBlockParam | Block>): ContentBlockParam[] {
  return blocks.flatMap((block) => (isTextBlock(block) ? userBlocks(block) : [block]));
}

/**
 * A turn message without a breakpoint, that is not the one the tail ends, maps to the same param every time (its text
 * blocks carry no breakpoint the limit could drop): it is mapped once per message object, so a long turn's older
 * messages are the same params from request to request and the body encoder (json-body.ts) knows them at once.
 */
const plainParams = new WeakMap<TurnMessage, MessageParam>();

function plainParam(message: TurnMessage): MessageParam {
  const known = plainParams.get(message);
  if (known !== undefined) return known;
  const content = turnContent(message);
  const param: MessageParam = { role: content.role, content: toContent(content.blocks) };
  plainParams.set(message, param);
  return param;
}

export function toMessageParams(request: ModelRequest): AnthropicStreamParams {
  const system = toBlocks(request.system);
  const user = toBlocks(request.user);
  if (user.length === 0) user.push({ text: EMPTY_USER_TEXT, cacheBreakpoint: false });
  const turnMessages = request.turn ?? [];
  const isPlain = (message: TurnMessage, index: number) =>
    message.role === 'assistant' || (message.cacheBreakpoint !== true && index !== turnMessages.length - 1);
  // Plain messages add no breakpoint and no text block the limit counts: only the others are mapped here.
  const turn = turnMessages.map((message, index) => (isPlain(message, index) ? undefined : turnContent(message)));
  const tail = toBlocks(request.tail ?? []);
  const lastTurn = turn.at(-1);
  if (lastTurn?.role === 'user') lastTurn.blocks.push(...tail);
  else user.push(...tail);
  // The newest tool_result's breakpoint is the last one; the limit keeps the newest ones.
  const mapped = turn.filter((message): message is TurnContent => message !== undefined);
  const turnBreakpoints = mapped
    .flatMap((message) => message.blocks)
    .filter((block) => !isTextBlock(block) && hasCacheControl(block)).length;
  const turnTexts = mapped.flatMap((message) => message.blocks).filter(isTextBlock);
  limitBreakpoints([...system, ...user, ...turnTexts], MAX_CACHE_BREAKPOINTS - turnBreakpoints);

  const messages: MessageParam[] = [{ role: 'user', content: user.flatMap(userBlocks) }];
  turn.forEach((message, index) => {
    messages.push(
      message === undefined
        ? plainParam(turnMessages[index] as TurnMessage)
        : { role: message.role, content: toContent(message.blocks) },
    );
  });
  const params: AnthropicStreamParams = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.tools !== undefined && request.tools.length > 0) params.tools = request.tools.map(toTool);
  if (request.webSearch !== undefined && request.tools !== undefined) {
    params.tools = [...(params.tools ?? []), webSearchTool(request.webSearch)];
  }
  if (request.thinkingBudget !== undefined && request.tools !== undefined) {
    params.thinking = { type: 'enabled', budget_tokens: request.thinkingBudget };
  }
  if (system.length > 0) params.system = system.map(toTextBlock);
  const stops = (request.stopSequences ?? []).filter((stop) => stop.trim().length > 0);
  if (stops.length > 0) params.stop_sequences = stops;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  return params;
}
