/**
 * The images of a stream-json user message, as Claude Code's SDK hosts send them: `{type: "image", source: {type:
 * "base64", media_type, data}}` blocks. Each is checked like any image (bytes, 5 MB, 20 per message); one that
 * fails (or a URL source, which mca does not fetch) is one warning line, never a crash.
 */
import { imagePartFromBase64, MAX_IMAGES_PER_MESSAGE, type ImagePart } from '../text/image-part.js';

export interface UserImages {
  images: ImagePart[];
  problems: string[];
}

interface ImageBlock {
  type: 'image';
  source?: { type?: unknown; media_type?: unknown; data?: unknown };
}

function isImageBlock(block: unknown): block is ImageBlock {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'image';
}

export function userImages(content: unknown): UserImages {
  const result: UserImages = { images: [], problems: [] };
  if (!Array.isArray(content)) return result;
  content.filter(isImageBlock).forEach((block, index) => {
    const label = `image ${index + 1} of the user message`;
    const source = block.source ?? {};
    if (source.type !== 'base64' || typeof source.data !== 'string' || typeof source.media_type !== 'string') {
      result.problems.push(`ignored ${label}: only base64 image sources are taken`);
      return;
    }
    if (result.images.length >= MAX_IMAGES_PER_MESSAGE) {
      result.problems.push(`ignored ${label}: at most ${MAX_IMAGES_PER_MESSAGE} images per message`);
      return;
    }
    const checked = imagePartFromBase64(source.data, source.media_type, label);
    if (checked.ok) result.images.push(checked.image);
    else result.problems.push(`ignored ${checked.message}`);
  });
  return result;
}
