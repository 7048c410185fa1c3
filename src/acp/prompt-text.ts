/**
 * An ACP prompt's content blocks as the text of one user message: text as it is, a resource link as a line
 * naming the file (the model reads it with its tools), an embedded resource (an editor's selection or file) as
 * its text inside a `<context>` block; images (base64) as image parts, each checked like any image (bytes, 5 MB,
 * 20 per prompt) with a failing one named in the text. Audio is not offered in initialize; audio that arrives
 * anyway is named, not dropped silently.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { imagePartFromBase64, MAX_IMAGES_PER_MESSAGE, type ImagePart } from '../text/image-part.js';

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
    .filter((block) => block.type !== 'image')
    .map(blockText)
    .filter((part) => part !== '')
    .join('\n\n');
}

/** The prompt's image blocks as image parts; each one that cannot be sent is a line for the prompt's text. */
export function promptImages(blocks: readonly ContentBlock[]): { images: ImagePart[]; problems: string[] } {
  const images: ImagePart[] = [];
  const problems: string[] = [];
  let index = 0;
  for (const block of blocks) {
    if (block.type !== 'image') continue;
    index += 1;
    const label = block.uri ? pathOf(block.uri) : `image ${index}`;
    if (images.length >= MAX_IMAGES_PER_MESSAGE) {
      problems.push(`[${label} not attached: at most ${MAX_IMAGES_PER_MESSAGE} images per prompt]`);
      continue;
    }
    const checked = imagePartFromBase64(block.data, block.mimeType, label);
    if (checked.ok) images.push(checked.image);
    else problems.push(`[${checked.message}]`);
  }
  return { images, problems };
}
