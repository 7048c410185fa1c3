import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../src/text/image-dimensions.js';
import {
  imageFromBytes,
  imagePartFromBase64,
  imageReference,
  imageTokens,
  MAX_IMAGE_BYTES,
  UNKNOWN_IMAGE_TOKENS,
} from '../../src/text/image-part.js';
import { jpegHeader, pngBytes } from '../helpers/image-fixtures.js';

const gif = Buffer.from([...Buffer.from('GIF89a', 'latin1'), 0x40, 0x01, 0xf0, 0x00, 0, 0, 0]);
const webpLossy = Buffer.concat([
  Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'),
  Buffer.alloc(10),
  Buffer.from([0x20, 0x03, 0x58, 0x02]),
]);

describe('image header parsing', () => {
  it('reads media type and size of PNG, JPEG, GIF and WebP', () => {
    expect(sniffImage(pngBytes(7, 3))).toEqual({ mediaType: 'image/png', width: 7, height: 3 });
    expect(sniffImage(jpegHeader(640, 480))).toEqual({ mediaType: 'image/jpeg', width: 640, height: 480 });
    expect(sniffImage(gif)).toEqual({ mediaType: 'image/gif', width: 320, height: 240 });
    expect(sniffImage(webpLossy)).toEqual({ mediaType: 'image/webp', width: 800, height: 600 });
  });

  it('refuses bytes that are no image, whatever the name says', () => {
    expect(sniffImage(Buffer.from('not a png at all'))).toBeUndefined();
    // A PNG signature without its IHDR chunk is a broken file, not an image.
    expect(sniffImage(pngBytes(2, 2).subarray(0, 14))).toBeUndefined();
    const check = imageFromBytes(Buffer.from('hello'), 'fake.png');
    expect(check).toMatchObject({ ok: false, code: 'NOT_AN_IMAGE' });
  });

  it('refuses an image over the cap and bad base64 with one-line messages', () => {
    const big = Buffer.concat([pngBytes(1, 1), Buffer.alloc(MAX_IMAGE_BYTES)]);
    const check = imageFromBytes(big, 'big.png');
    expect(check).toMatchObject({ ok: false, code: 'TOO_LARGE' });
    if (!check.ok) expect(check.message).not.toContain('\n');
    expect(imagePartFromBase64('@@@', 'image/png', 'x')).toMatchObject({ ok: false, code: 'NOT_AN_IMAGE' });
    expect(imagePartFromBase64(pngBytes(1, 1).toString('base64'), 'image/tiff', 'x')).toMatchObject({ ok: false });
  });

  it('builds a part from base64 (the bytes decide the media type), estimates tokens, and names it in one line', () => {
    const check = imagePartFromBase64(pngBytes(750, 100).toString('base64'), 'image/jpeg', 'shot');
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.image.mediaType).toBe('image/png');
    expect(imageTokens(check.image)).toBe(100);
    expect(imageTokens({})).toBe(UNKNOWN_IMAGE_TOKENS);
    expect(imageReference(check.image)).toMatch(/^\[image: shot, 750x100, \d+ KB\]$/);
  });
});
