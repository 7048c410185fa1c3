/**
 * An ACP prompt's content blocks as the text of one user message: text as it is, a resource link as a line
 * naming the file (the model reads it with its tools), an embedded resource (an editor's selection or file) as
 * its text inside a `<context>` block. Images and audio are not offered in initialize; one that arrives anyway
 * is named, not dropped silently.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';

/** The most text one embedded resource adds to the prompt. */
export const EMBEDDED_MAX_CHARS = 200_000;

function pathOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[Attached: ${pathOf(block.uri)}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') {
        const body =
          resource.text.length > EMBEDDED_MAX_CHARS
            ? `${resource.text.slice(0, EMBEDDED_MAX_CHARS)}\n… [cut]`
            : resource.text;
        return `<context uri="${pathOf(resource.uri).replace(/"/g, '%22')}">\n${body}\n</context>`;
      }
      return `[Attached binary resource: ${pathOf(resource.uri)} (not shown)]`;
    }
    default:
      return `[An ${block.type} was attached; mca reads text only]`;
  }
}

export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map(blockText)
    .filter((part) => part !== '')
    .join('\n\n');
}
