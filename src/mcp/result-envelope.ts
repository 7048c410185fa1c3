/**
 * An MCP tool result as mca's envelope. Text blocks are joined; an image block (PNG, JPEG, GIF, WebP, checked by
 * its bytes, at most MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE per result) becomes an image part the model sees this
 * turn, and its one-line reference in the text (all history keeps); an image that cannot be sent and an audio
 * block become a one-line placeholder naming type, size and why; a resource link is its name and URI; an embedded resource its text (or
 * a placeholder for a blob); `structuredContent` is used when there is no content. `isError` makes an error
 * envelope (EXECUTION_ERROR) carrying the server's text. Control characters are neutralised (a server's text
 * reaches the terminal and the model). A result over MAX_MCP_OUTPUT_TOKENS is cut before the model sees it;
 * the whole text is stored in the session's tool memory and the cut text names the reference Recall pages with.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { errorEnvelope, successEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { imagePartFromBase64, imageReference, MAX_IMAGES_PER_MESSAGE, type ImagePart } from '../text/image-part.js';
import { CHARS_PER_TOKEN } from './result-limits.js';

// The limits live apart (result-limits.ts) so the runtime can read them without loading this module.
export { CHARS_PER_TOKEN, DEFAULT_MAX_OUTPUT_TOKENS } from './result-limits.js';

export interface McpResultData extends Record<string, unknown> {
  server: string;
  tool: string;
  /** The text the model saw (possibly cut). */
  output: string;
  /** The whole result's length in characters. */
  chars: number;
  truncated: boolean;
  /** The tool memory reference of the whole result, when it was cut. */
  ref?: string;
}

type Block = CallToolResult['content'][number];

function sizeOfBase64(data: unknown): number {
  return typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
}

/** Images taken from a result so far (the envelope carries them); `label` names their source. */
interface ImageSink {
  label: string;
  images: ImagePart[];
}

function imageText(block: Extract<Block, { type: 'image' }>, sink: ImageSink): string {
  const data = typeof block.data === 'string' ? block.data : '';
  const mime = typeof block.mimeType === 'string' ? block.mimeType : '';
  if (sink.images.length >= MAX_IMAGES_PER_MESSAGE) {
    return `[image result: ${mime}, ${sizeOfBase64(data)} bytes; not shown: over ${MAX_IMAGES_PER_MESSAGE} images]`;
  }
  const checked = imagePartFromBase64(data, mime, sink.label);
  if (!checked.ok) return `[image result: ${mime}, ${sizeOfBase64(data)} bytes; not shown: ${checked.message}]`;
  sink.images.push(checked.image);
  return imageReference(checked.image);
}

function blockText(block: Block, sink?: ImageSink): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      if (sink) return imageText(block, sink);
      return `[image result: ${block.mimeType}, ${sizeOfBase64(block.data)} bytes]`;
    case 'audio':
      return `[${block.type} result: ${block.mimeType}, ${sizeOfBase64(block.data)} bytes; not shown to the model]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${
        block.description ? ` ${block.description}` : ''
      }]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource ? resource.blob : undefined;
      return `[resource ${resource.uri}: ${resource.mimeType ?? 'binary'}, ${sizeOfBase64(blob)} bytes; not shown]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} block]`;
  }
}

export function resultText(result: CallToolResult, sink?: ImageSink): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return content.map((block) => blockText(block, sink)).join('\n');
}

export interface EnvelopeOptions {
  server: string;
  tool: string;
  maxOutputTokens: number;
  toolMemory: ToolMemory | undefined;
}

export function resultEnvelope(result: CallToolResult, options: EnvelopeOptions): ToolEnvelope {
  const sink: ImageSink = { label: `mcp ${options.server}/${options.tool}`, images: [] };
  const full = neutralizeControlSequences(resultText(result, sink));
  const images = sink.images.length > 0 ? { images: sink.images } : {};
  const maxChars = Math.max(1, options.maxOutputTokens) * CHARS_PER_TOKEN;
  const truncated = full.length > maxChars;
  let output = full;
  let ref: string | undefined;
  if (truncated) {
    ref = options.toolMemory?.store(full);
    const shownLines = full.slice(0, maxChars).split('\n').length;
    const how = ref
      ? `the whole result is stored as ${ref}: read the rest with Recall {"ref": "${ref}", "start_line": ${shownLines}}`
      : 'the rest is not kept';
    output = `${full.slice(0, maxChars)}\n… [output cut at MAX_MCP_OUTPUT_TOKENS=${options.maxOutputTokens} tokens of ${full.length} chars; ${how}]`;
  }
  const data: McpResultData = {
    server: options.server,
    tool: options.tool,
    output,
    chars: full.length,
    truncated,
    ...(ref ? { ref } : {}),
  };
  if (result.isError === true) {
    const envelope = errorEnvelope('EXECUTION_ERROR', `${options.tool} on MCP server ${options.server} failed`, {
      data,
    });
    return { ...envelope, text: `${envelope.text}\n${output}`, ...images };
  }
  const envelope = successEnvelope(
    data,
    output === '' ? '(no output)' : output,
    truncated ? { status: 'partial' } : {},
  );
  return { ...envelope, ...images };
}
