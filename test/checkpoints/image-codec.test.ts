/**
 * The stored scan (image-codec.ts): every kind of entry comes back as it went in (index-blob references in the
 * compact columns, copies, references of an added directory, entries whose mode or size differ from their stat, not
 * restorable ones), and an image stored in the format before it (a plain path → entry object) is still read.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeImage, encodeImage } from '../../src/checkpoints/image-codec.js';
import type { Image } from '../../src/checkpoints/project-scan.js';

const stat = (size: number, mode = 0o100644) => ({
  size,
  mtimeMs: 1764377000123.456,
  ctimeMs: 1764377000999.5,
  ino: 42,
  mode,
});

const IMAGE: Image = {
  'src/a.ts': { stat: stat(10), state: { kind: 'git', blob: 'a'.repeat(40), mode: 0o644, size: 10 } },
  v: { stat: stat(3, 0o100755), state: { kind: 'git', blob: 'b'.repeat(64), mode: 0o755, size: 3 } },
  'src/b.ts': { stat: stat(5), state: { kind: 'file', hash: 'c'.repeat(64), mode: 0o644, size: 5 } },
  '/added/x.ts': { stat: stat(7), state: { kind: 'git', blob: 'd'.repeat(40), mode: 0o644, size: 7, root: '/added' } },
  'odd.ts': { stat: stat(8), state: { kind: 'git', blob: 'e'.repeat(40), mode: 0o755, size: 8 } },
  'big.bin': { stat: stat(9e6), state: { kind: 'unrestorable', reason: 'larger than the limit' } },
};

describe('the stored scan', () => {
  it('comes back entry for entry', () => {
    expect(decodeImage(encodeImage(IMAGE))).toEqual(IMAGE);
  });

  it('reads an image stored in the earlier format', () => {
    expect(decodeImage(gzipSync(JSON.stringify(IMAGE)))).toEqual(IMAGE);
  });

  it('answers undefined for bytes it cannot read', () => {
    expect(decodeImage(Buffer.from('not gzip'))).toBeUndefined();
    expect(decodeImage(gzipSync(JSON.stringify({ v: 2, git: ['p', 'x'], rest: {} })))).toEqual({});
    expect(decodeImage(gzipSync(JSON.stringify({ v: 2, git: ['p', 1, 2, 3, 4, 5, 6], rest: {} })))).toBeUndefined();
  });
});
