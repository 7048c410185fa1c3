import { describe, expect, it } from 'vitest';
import { createKeySplitter, splitKeys } from '../../src/ui/key-splitter.js';
import { parseKey } from '../../src/ui/keys.js';

describe('splitKeys', () => {
  it('keeps a run of plain characters whole (typing with Enter, or a paste) and splits off escape sequences', () => {
    expect(splitKeys('hello\r').events).toEqual(['hello\r']);
    expect(splitKeys('one\ntwo').events).toEqual(['one\ntwo']);
    expect(splitKeys('ab\x1b[Acd\x1b[3~\x1b[Z').events).toEqual(['ab', '\x1b[A', 'cd', '\x1b[3~', '\x1b[Z']);
  });

  it('reads Alt combinations, SS3 keys, modified and legacy function keys as one event each', () => {
    expect(splitKeys('\x1b\r\x1b\x7f\x1bOA\x1b[1;5C\x1b[[A\x1b\x1b[B').events).toEqual([
      '\x1b\r',
      '\x1b\x7f',
      '\x1bOA',
      '\x1b[1;5C',
      '\x1b[[A',
      '\x1b\x1b[B',
    ]);
    expect(splitKeys('\x1b\x1bx').events).toEqual(['\x1b\x1b', 'x']);
  });

  it('holds an escape sequence cut at the end of a chunk until the next one', () => {
    const splitter = createKeySplitter();
    expect(splitter.push('abc\x1b[')).toEqual(['abc']);
    expect(splitter.hasPending()).toBe(true);
    expect(splitter.push('D')).toEqual(['\x1b[D']);
    expect(splitter.hasPending()).toBe(false);
  });

  it('flushes a lone Esc as the Esc key', () => {
    const splitter = createKeySplitter();
    expect(splitter.push('\x1b')).toEqual([]);
    const rest = splitter.flush();
    expect(rest).toBe('\x1b');
    expect(parseKey(rest ?? '')).toEqual([{ kind: 'escape' }]);
    expect(splitter.flush()).toBeUndefined();
  });

  it('tells Backspace from Delete after splitting (what Ink 6 useInput cannot)', () => {
    const keys = splitKeys('\x7f\x1b[3~').events.flatMap((raw) => parseKey(raw));
    expect(keys).toEqual([{ kind: 'backspace' }, { kind: 'delete' }]);
  });
});
