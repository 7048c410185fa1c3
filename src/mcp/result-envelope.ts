/**
 * An MCP tool result as mca's envelope. Text blocks are joined; an image or audio block becomes a one-line
 * placeholder naming its type and size (mca's tool results are text for every provider today: the model is told
 * an image came back, it does not see it); a resource link is its name and URI; an embedded resource its text (or
 * a placeholder for a blob); `structuredContent` is used when there is no content. `isError` makes an error
 * envelope (EXECUTION_ERROR) carrying the server's text. Control characters are neutralised (a server's text
 * reaches the terminal and the model). A result over MAX_MCP_OUTPUT_TOKENS is cut before the model sees it;
 * the whole text is stored in the session's tool memory and the cut text names the reference Recall pages with.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { errorEnvelope, successEnvelope, type ToolEnvelope } from '../tools/envelope.js';
import type { ToolMemory } from '../tools/tool-memory.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;
/** mca's token estimate is 3 characters per token (context/token-budget.ts): the cap in characters. */
export const CHARS_PER_TOKEN = 3;

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

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
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

export function resultText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return content.map(blockText).join('\n');
}

export interface EnvelopeOptions {
  server: string;
  tool: string;
  maxOutputTokens: number;
  toolMemory: ToolMemory | undefined;
}

export function resultEnvelope(result: CallToolResult, options: EnvelopeOptions): ToolEnvelope {
  const full = neutralizeControlSequences(resultText(result));
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
    return { ...envelope, text: `${envelope.text}\n${output}` };
  }
  return successEnvelope(data, output === '' ? '(no output)' : output, truncated ? { status: 'partial' } : {});
}
