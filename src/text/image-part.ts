/**
 * The image part of a message (a user's `@shot.png`, a pasted image, a Read of an image file, an MCP image
 * result): base64 data and its media type, checked against its magic bytes and bounded in size. Providers map it
 * to their wire form (Anthropic `image` blocks, OpenAI `image_url` data URLs); a model that takes no images gets
 * IMAGE_OMITTED_NOTE instead. Nothing here reads files (src/fs/image-file.ts does).
 */
import { isImageMediaType, sniffImage, type ImageMediaType } from './image-dimensions.js';

export { IMAGE_MEDIA_TYPES, isImageMediaType, type ImageMediaType } from './image-dimensions.js';

export interface ImagePart {
  type: 'image';
  mediaType: ImageMediaType;
  /** The image bytes, base64 (no data: prefix). */
  data: string;
  /** Raw size in bytes. */
  bytes: number;
  width?: number;
  height?: number;
  /** Where it came from, for the one-line reference: a path, `clipboard`, `mcp <server>/<tool>`. */
  label: string;
}

/** Anthropic's limit for one image (5 MB raw); larger images are refused with a one-line error, not sent. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** At most this many images ride on one message (a user message or one tool result); more are dropped with a note. */
export const MAX_IMAGES_PER_MESSAGE = 20;
/**
 * At most this many images, and this many raw bytes of them, go into one request (the API refuses requests over
 * 32 MB, and base64 adds a third): the newest are sent, older ones of the turn keep only their reference line.
 */
export const MAX_IMAGES_PER_REQUEST = 20;
export const MAX_IMAGE_BYTES_PER_REQUEST = 18 * 1024 * 1024;
/** The estimate for an image whose size the header did not give (about a 1000×1000 image). */
export const UNKNOWN_IMAGE_TOKENS = 1_600;
/** What a model that takes no images sees in place of one. */
export const IMAGE_OMITTED_NOTE = '[image omitted: model takes no images]';

export type ImageCheck =
  { ok: true; image: ImagePart } | { ok: false; code: 'TOO_LARGE' | 'NOT_AN_IMAGE'; message: string };

function kb(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The error for an image of `bytes` raw bytes, over MAX_IMAGE_BYTES (a file's size, before it is read, too). */
export function imageTooLarge(label: string, bytes: number): ImageCheck {
  return {
    ok: false,
    code: 'TOO_LARGE',
    message: `${label} is ${kb(bytes)}; images over ${kb(MAX_IMAGE_BYTES)} are not sent`,
  };
}

/** Checks raw bytes: under MAX_IMAGE_BYTES, and a PNG/JPEG/GIF/WebP by content (the name's extension is not trusted). */
export function imageFromBytes(bytes: Uint8Array, label: string): ImageCheck {
  if (bytes.length > MAX_IMAGE_BYTES) return imageTooLarge(label, bytes.length);
  const sniffed = sniffImage(bytes);
  if (sniffed === undefined) {
    return { ok: false, code: 'NOT_AN_IMAGE', message: `${label} is not a PNG, JPEG, GIF or WebP image` };
  }
  return {
    ok: true,
    image: { type: 'image', ...sniffed, data: Buffer.from(bytes).toString('base64'), bytes: bytes.length, label },
  };
}

/**
 * An image part from base64 and a media type, as an ACP prompt or an MCP result carries it. The bytes decide the
 * media type when they disagree with the one given; a type the API does not take, bad base64, bytes that are no
 * image or over the cap give an error value.
 */
export function imagePartFromBase64(data: string, mediaType: string, label: string): ImageCheck {
  // The size is checked before any scan or decode of the string: a huge payload costs nothing more.
  if (Math.floor((data.length * 3) / 4) > MAX_IMAGE_BYTES * 1.1) return imageTooLarge(label, (data.length * 3) / 4);
  const compact = data.replace(/\s+/g, '');
  if (!isImageMediaType(mediaType.toLowerCase()) || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    return { ok: false, code: 'NOT_AN_IMAGE', message: `${label}: ${mediaType} data is not an image mca can send` };
  }
  return imageFromBytes(Buffer.from(compact, 'base64'), label);
}

/** Anthropic scales an image down until its long edge is at most this many pixels … */
const MAX_EDGE_PIXELS = 1568;
/** … and its area at most about this many pixels, before counting it. */
const MAX_AREA_PIXELS = 1_150_000;

/**
 * Anthropic's rule of thumb: width × height / 750 tokens, after the API's own downscaling (so a header claiming
 * 100000×100000 pixels counts as the ≈1,600 tokens the model really sees); a fixed estimate when the size is unknown.
 */
export function imageTokens(image: Pick<ImagePart, 'width' | 'height'>): number {
  const { width, height } = image;
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return UNKNOWN_IMAGE_TOKENS;
  const scale = Math.min(1, MAX_EDGE_PIXELS / Math.max(width, height), Math.sqrt(MAX_AREA_PIXELS / (width * height)));
  return Math.max(1, Math.ceil((width * height * scale * scale) / 750));
}

export function imagesTokens(images: readonly ImagePart[] | undefined): number {
  return (images ?? []).reduce((sum, image) => sum + imageTokens(image), 0);
}

/** The one-line form history keeps: `[image: shot.png, 800x600, 12 KB]`. */
export function imageReference(image: ImagePart): string {
  const size = image.width !== undefined && image.height !== undefined ? `${image.width}x${image.height}, ` : '';
  return `[image: ${image.label}, ${size}${kb(image.bytes)}]`;
}
