/**
 * The media type and pixel size of an image from its first bytes (magic numbers and headers), for PNG, JPEG, GIF
 * and WebP: what the API accepts. Bytes that are not one of them give `undefined` (a `.png` that is not a PNG is
 * refused, never sent). Dimensions the header does not give (a truncated JPEG) are left out; the caller then
 * counts a fixed token estimate.
 */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export interface SniffedImage {
  mediaType: ImageMediaType;
  width?: number;
  height?: number;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((value, index) => bytes[at + index] === value);
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);
}

function sized(mediaType: ImageMediaType, width: number, height: number): SniffedImage {
  return width > 0 && height > 0 ? { mediaType, width, height } : { mediaType };
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = [0x49, 0x48, 0x44, 0x52];
const GIF = [0x47, 0x49, 0x46, 0x38];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/** JPEG: walks the markers to the first start-of-frame (SOF0..SOF15 but DHT, JPG, DAC), which holds the size. */
function jpegSize(bytes: Uint8Array): SniffedImage {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return { mediaType: 'image/jpeg' };
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = u16be(bytes, at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return sized('image/jpeg', u16be(bytes, at + 7), u16be(bytes, at + 5));
    if (length < 2) return { mediaType: 'image/jpeg' };
    at += 2 + length;
  }
  return { mediaType: 'image/jpeg' };
}

/** WebP: the VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk after the RIFF header. */
function webpSize(bytes: Uint8Array): SniffedImage {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8 ') return sized('image/webp', u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized('image/webp', u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
  return { mediaType: 'image/webp' };
}

export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  if (startsWith(bytes, PNG)) {
    // The IHDR chunk comes first: width and height at bytes 16 and 20. A PNG without one is broken, not an image.
    if (!startsWith(bytes, IHDR, 12)) return undefined;
    const image = sized('image/png', u32be(bytes, 16), u32be(bytes, 20));
    return image.width === undefined ? undefined : image;
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegSize(bytes);
  if (startsWith(bytes, GIF) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61 && bytes.length >= 10) {
    return sized('image/gif', u16le(bytes, 6), u16le(bytes, 8));
  }
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return webpSize(bytes);
  return undefined;
}

export function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}
