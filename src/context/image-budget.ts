/**
 * Which images of a turn one request carries: at most MAX_IMAGES_PER_REQUEST and MAX_IMAGE_BYTES_PER_REQUEST
 * bytes. The input's own images come first (the user attached them for this question), then the tool results'
 * images from the newest step back; an image left out is still named by its result's reference line.
 */
import { MAX_IMAGE_BYTES_PER_REQUEST, MAX_IMAGES_PER_REQUEST, type ImagePart } from '../text/image-part.js';

export interface RequestImages {
  question: readonly ImagePart[];
  /** Per scratchpad step, in step order. */
  steps: ReadonlyArray<readonly ImagePart[]>;
}

export function imagesWithinRequest(images: RequestImages): RequestImages {
  let count = 0;
  let bytes = 0;
  const fits = (image: ImagePart): boolean => {
    if (count >= MAX_IMAGES_PER_REQUEST || bytes + image.bytes > MAX_IMAGE_BYTES_PER_REQUEST) return false;
    count += 1;
    bytes += image.bytes;
    return true;
  };
  const question = images.question.filter(fits);
  const steps: Array<readonly ImagePart[]> = [];
  for (let index = images.steps.length - 1; index >= 0; index--) {
    steps[index] = (images.steps[index] ?? []).filter(fits);
  }
  return { question, steps };
}
