import { describe, expect, it } from 'vitest';
import { parseKey } from '../../src/ui/keys.js';

describe('parseKey', () => {
  it('tells Enter, Alt-Enter and Ctrl-J apart', () => {
    expect(parseKey('\r')).toEqual([{ kind: 'submit' }]);
    expect(parseKey('\x1b\r')).toEqual([{ kind: 'newline' }]);
    expect(parseKey('\n')).toEqual([{ kind: 'newline' }]);
  });

  it('tells Backspace from Delete', () => {
    expect(parseKey('\x7f')).toEqual([{ kind: 'backspace' }]);
    expect(parseKey('\x1b[3~')).toEqual([{ kind: 'delete' }]);
  });

  it('maps arrows, home/end and modified arrows', () => {
    expect(parseKey('\x1b[A')).toEqual([{ kind: 'up' }]);
    expect(parseKey('\x1bOD')).toEqual([{ kind: 'left' }]);
    expect(parseKey('\x1b[1;5C')).toEqual([{ kind: 'right' }]);
    expect(parseKey('\x1b[H')).toEqual([{ kind: 'home' }]);
    expect(parseKey('\x1b[4~')).toEqual([{ kind: 'end' }]);
  });

  it('reads two Esc presses that arrive in one chunk as two presses (Esc Esc opens /rewind)', () => {
    expect(parseKey('\x1b')).toEqual([{ kind: 'escape' }]);
    expect(parseKey('\x1b\x1b')).toEqual([{ kind: 'escape' }, { kind: 'escape' }]);
  });

  it('maps control letters', () => {
    expect(parseKey('\x03')).toEqual([{ kind: 'ctrl', key: 'c' }]);
    expect(parseKey('\x04')).toEqual([{ kind: 'ctrl', key: 'd' }]);
  });

  it('treats typed text followed by Enter in one chunk as text then submit', () => {
    expect(parseKey('hello\r')).toEqual([{ kind: 'text', text: 'hello', paste: false }, { kind: 'submit' }]);
  });

  it('keeps a multi-line paste whole with normalized newlines', () => {
    expect(parseKey('a\r\nb\rc')).toEqual([{ kind: 'text', text: 'a\nb\nc', paste: true }]);
  });
});
