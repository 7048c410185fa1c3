/**
 * Read of an image file (by its extension): the result carries the image itself (as Claude Code's Read does) and
 * the text is its one-line reference, which is all history keeps. A file over MAX_IMAGE_BYTES is an error
 * observation (never read whole); bytes that are not a PNG/JPEG/GIF/WebP are BINARY_FILE, as any binary file.
 */
import type { FileHandle } from 'node:fs/promises';
import { imageFromBytes, imageReference, MAX_IMAGE_BYTES } from '../../text/image-part.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import { clip, isRecord, isString } from '../../text/json-guards.js';
import type { JsonRecord } from '../registry/define-tool.js';

/** What a Read of an image returns as data (the image rides on the envelope's `images`). */
export interface ReadImageData {
  path: string;
  /** The one-line reference: `[image: path, WxH, N KB]`. */
  image: string;
  media_type: string;
  bytes: number;
  width?: number;
  height?: number;
}

export async function readImage(
  handle: FileHandle,
  relative: string,
  size: number,
  context: Record<string, unknown>,
): Promise<ToolEnvelope> {
  if (size > MAX_IMAGE_BYTES) {
    return errorEnvelope(
      'INVALID_PARAM',
      `${relative} is a ${Math.round(size / 1024)} KB image; images over ${MAX_IMAGE_BYTES / 1024} KB are not sent.`,
      { context },
    );
  }
  const bytes = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const { bytesRead } = await handle.read(bytes, read, size - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  const checked = imageFromBytes(bytes.subarray(0, read), relative);
  if (!checked.ok) {
    return errorEnvelope(
      'BINARY_FILE',
      `${relative} is named like an image but is not a PNG, JPEG, GIF or WebP image (${size} bytes); Read only shows text and images.`,
      { context },
    );
  }
  const { image } = checked;
  const reference = imageReference(image);
  const data: ReadImageData = {
    path: relative,
    image: reference,
    media_type: image.mediaType,
    bytes: image.bytes,
    ...(image.width !== undefined && image.height !== undefined ? { width: image.width, height: image.height } : {}),
  };
  return { ...toolResult(data, reference, { stats: { bytes: size }, context }), images: [image] };
}

/** History's form of an image Read: the path and the reference line, never the data. */
export function compressImageRead(data: JsonRecord): JsonRecord | undefined {
  if (!isString(data.path) || !isString(data.image)) return undefined;
  return { path: clip(data.path, 200), image: clip(data.image, 300) };
}

export function isImageRead(data: unknown): data is JsonRecord & { path: string; image: string } {
  return isRecord(data) && isString(data.path) && isString(data.image);
}
