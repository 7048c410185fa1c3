/**
 * The images a turn carries: the ones a front end attached (a pasted path or clipboard image, an ACP prompt's
 * image) and the `@image.png` files the input mentions (already inside the project: the mention's file view is
 * the workspace guard; a Read deny rule that covers the file, by its path or its real path, keeps it out as it
 * keeps it from the Read tool). An image that cannot be sent (too large, not an image by its bytes, unreadable) and any
 * past MAX_IMAGES_PER_MESSAGE become one line each after the input, so the model and the user see why.
 */
import { resolve } from 'node:path';
import type { PathCheck } from '../permissions/path-screen.js';
import type { Mention } from '../context/input-preprocessor.js';
import { readImageFile } from '../fs/image-file.js';
import { MAX_IMAGES_PER_MESSAGE, type ImagePart } from '../text/image-part.js';

export interface TurnAttachments {
  text: string;
  images: ImagePart[];
  /** Why an image was not attached, one line each (also in `text`, for the model); the front shows them. */
  notes: string[];
}

export function attachImages(
  text: string,
  mentioned: readonly Mention[],
  given: readonly ImagePart[],
  projectRoot: string,
  readDenied?: PathCheck,
): TurnAttachments {
  const images: ImagePart[] = [...given];
  const notes: string[] = [];
  for (const mention of mentioned) {
    // The check matches the path as written and its real path (path-screen.ts).
    const rule = readDenied?.(resolve(projectRoot, mention.path));
    if (rule) {
      notes.push(`[${mention.display} not attached: the ${rule.behavior} rule ${rule.text} covers it]`);
      continue;
    }
    const read = readImageFile(resolve(projectRoot, mention.path), mention.path);
    if (read.ok) images.push(read.image);
    else notes.push(`[${mention.display} not attached: ${read.message}]`);
  }
  if (images.length > MAX_IMAGES_PER_MESSAGE) {
    notes.push(
      `[${images.length - MAX_IMAGES_PER_MESSAGE} images not attached: at most ${MAX_IMAGES_PER_MESSAGE} per message]`,
    );
  }
  return {
    text: notes.length > 0 ? `${text}\n\n${notes.join('\n')}` : text,
    images: images.slice(0, MAX_IMAGES_PER_MESSAGE),
    notes,
  };
}
