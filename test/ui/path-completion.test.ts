import { describe, expect, it } from 'vitest';
import {
  applyCompletion,
  commonPrefix,
  extendToCommonPrefix,
  findMentionAtCursor,
  formatMention,
} from '../../src/ui/path-completion.js';

describe('findMentionAtCursor', () => {
  it('finds a plain mention being typed', () => {
    const text = 'look at @src/ma';
    expect(findMentionAtCursor(text, text.length)).toEqual({ start: 8, end: 15, prefix: 'src/ma', quoted: false });
  });

  it('finds a quoted mention with spaces', () => {
    const text = 'open @"my do';
    expect(findMentionAtCursor(text, text.length)).toEqual({ start: 5, end: 12, prefix: 'my do', quoted: true });
  });

  it('ignores e-mail addresses and text without @', () => {
    expect(findMentionAtCursor('mail me@host', 12)).toBeNull();
    expect(findMentionAtCursor('plain words', 11)).toBeNull();
  });
});

describe('applyCompletion', () => {
  it('completes a file with a trailing space', () => {
    const text = 'read @src/ma please';
    const token = findMentionAtCursor(text, 12);
    expect(token).not.toBeNull();
    if (!token) return;
    expect(applyCompletion(text, token, 'src/main.ts')).toEqual({ text: 'read @src/main.ts please', cursor: 17 });
  });

  it('quotes paths with spaces', () => {
    const text = 'see @docs/my';
    const token = findMentionAtCursor(text, text.length);
    if (!token) throw new Error('no token');
    const done = applyCompletion(text, token, 'docs/my notes.md');
    expect(done.text).toBe('see @"docs/my notes.md" ');
    expect(done.cursor).toBe(done.text.length);
    expect(formatMention('a b.md')).toBe('@"a b.md"');
  });

  it('keeps the cursor inside a quoted directory so completion can continue', () => {
    const text = '@"my d';
    const token = findMentionAtCursor(text, text.length);
    if (!token) throw new Error('no token');
    const done = applyCompletion(text, token, 'my dir/');
    expect(done).toEqual({ text: '@"my dir/"', cursor: 9 });
    const again = findMentionAtCursor(done.text, done.cursor);
    expect(again).toEqual({ start: 0, end: 10, prefix: 'my dir/', quoted: true });
    if (!again) return;
    expect(applyCompletion(done.text, again, 'my dir/a b.md').text).toBe('@"my dir/a b.md" ');
  });

  it('extends to the common prefix of several candidates', () => {
    expect(commonPrefix(['src/ui/', 'src/utils.ts'])).toBe('src/u');
    const text = '@sr';
    const token = findMentionAtCursor(text, 3);
    if (!token) throw new Error('no token');
    expect(extendToCommonPrefix(text, token, ['src/ui/', 'src/utils.ts'])).toEqual({ text: '@src/u', cursor: 6 });
    expect(extendToCommonPrefix(text, token, ['sr1', 'sr2'])).toBeNull();
  });
});
