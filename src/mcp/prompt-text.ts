/**
 * What an MCP server hands back as text for the model: the messages of a prompt (`prompts/get`) and the contents of
 * a resource (`resources/read`). Text is kept; an embedded resource is its text; a blob, image or audio becomes a
 * one-line note naming its type and size (never its bytes); a resource link is its name and URI. The whole is cut at
 * `maxChars` (the MCP output cap) with a note saying how much was left out.
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';

type PromptContent = GetPromptResult['messages'][number]['content'];
type ResourceContent = ReadResourceResult['contents'][number];

function bytesOfBase64(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

/** A resource's contents: its text, or a note for a blob. */
export function resourceContentText(content: ResourceContent): string {
  if ('text' in content && typeof content.text === 'string') return content.text;
  const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
  const type = content.mimeType ?? 'binary';
  return `[binary resource ${content.uri} (${type}, ${bytesOfBase64(blob)} bytes) not attached]`;
}

function promptContentText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'resource':
      return resourceContentText(content.resource);
    case 'resource_link':
      return `[resource ${content.name}: ${content.uri}]`;
    case 'image':
    case 'audio':
      return `[${content.type} (${content.mimeType}, ${bytesOfBase64(content.data)} bytes) not attached]`;
    default:
      return '';
  }
}

/** Cuts `text` at `maxChars`, saying how much was left out. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters cut (MAX_MCP_OUTPUT_TOKENS)]`;
}

/** The prompt's messages as one text: each message's content, a blank line between them. */
export function promptText(result: GetPromptResult, maxChars: number): string {
  const parts = result.messages.map((message) => promptContentText(message.content)).filter((part) => part !== '');
  return capText(parts.join('\n\n'), maxChars);
}

/**
 * A resource's contents as one text, its text parts cut to `budget` characters in all; `used` is how many of them
 * were kept. Notes for binary parts always go along (they are one line each).
 */
export function resourceText(result: ReadResourceResult, budget: number): { text: string; used: number } {
  let left = Math.max(0, budget);
  const parts = result.contents.map((content) => {
    if (!('text' in content) || typeof content.text !== 'string') return resourceContentText(content);
    const kept = capText(content.text, left);
    left = Math.max(0, left - content.text.length);
    return kept;
  });
  return { text: parts.join('\n\n'), used: Math.max(0, budget) - left };
}
