import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clipboardImage, pastedImage, pastedPath } from '../../src/ui/image-paste.js';
import * as edit from '../../src/ui/input-state.js';
import { pngBytes } from '../helpers/image-fixtures.js';

describe('pasted image paths', () => {
  it('reads the forms terminals write for a dragged file', () => {
    expect(pastedPath("'/a b/shot.png'")).toBe('/a b/shot.png');
    expect(pastedPath('"/a b/shot.png" ')).toBe('/a b/shot.png');
    expect(pastedPath('/a\\ b/shot\\ 1.png ')).toBe('/a b/shot 1.png');
    expect(pastedPath('file:///a%20b/shot.png')).toBe('/a b/shot.png');
    expect(pastedPath('two words.png')).toBeUndefined();
    expect(pastedPath('/a.png\n/b.png')).toBeUndefined();
  });

  it('attaches a real image, reports a fake or huge one, and leaves other pastes as text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-paste-'));
    writeFileSync(join(dir, 'ok.png'), pngBytes(3, 2));
    writeFileSync(join(dir, 'fake.png'), 'not an image');
    expect(pastedImage(join(dir, 'ok.png'), '/')).toMatchObject({ kind: 'image', image: { width: 3, height: 2 } });
    expect(pastedImage(join(dir, 'fake.png'), '/')).toEqual({
      kind: 'error',
      message: `Image not attached: ${join(dir, 'fake.png')} is not a PNG, JPEG, GIF or WebP image`,
    });
    expect(pastedImage(join(dir, 'missing.png'), '/')).toEqual({ kind: 'text' });
    expect(pastedImage('some pasted prose', '/')).toEqual({ kind: 'text' });
  });

  it('numbers placeholders, sends only the images still in the text, and Backspace removes one whole', () => {
    const image = { type: 'image' as const, mediaType: 'image/png' as const, data: 'x', bytes: 1, label: 'a' };
    let state = edit.insertImage(edit.emptyInput(), image);
    state = edit.insertImage(state, { ...image, label: 'b' });
    expect(state.text).toBe('[Image #1] [Image #2] ');
    expect(edit.expandedText(state)).toBe('[Image #1] [Image #2] ');
    state = edit.backspace(edit.backspace(state));
    expect(state.text).toBe('[Image #1] ');
    expect(edit.attachedImages(state).map((entry) => entry.label)).toEqual(['a']);
  });

  it('Ctrl+V without a clipboard tool says so in one line', async () => {
    if (process.platform === 'darwin') return;
    const read = await clipboardImage({});
    expect(read).toMatchObject({ ok: false, code: 'NO_TOOL' });
  });
});
