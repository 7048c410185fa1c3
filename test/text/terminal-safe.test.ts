/* eslint-disable no-control-regex -- the assertions look for raw control characters */
import { describe, expect, it } from 'vitest';
import { hasControlSequences, neutralizeControlSequences } from '../../src/text/terminal-safe.js';

describe('neutralizeControlSequences', () => {
  it('keeps ordinary text, newlines, tabs and wide characters as they are', () => {
    const text = 'line one\n\tindented — ünïcode 漢字 🙂\nlast';
    expect(neutralizeControlSequences(text)).toBe(text);
    expect(hasControlSequences(text)).toBe(false);
  });

  it('shows the escape of an OSC 52 clipboard write and an OSC 2 title instead of sending it', () => {
    const osc52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
    const osc2 = '\u001b]2;pwned\u001b\\';
    const out = neutralizeControlSequences(`a${osc52}b${osc2}c`);
    expect(out).not.toMatch(/[\u0000-\u001f]/u);
    expect(out).toBe('a␛]52;c;cm0gLXJmIH4=␇b␛]2;pwned␛\\c');
  });

  it('shows SGR concealment, cursor moves and a lone carriage return', () => {
    expect(neutralizeControlSequences('ok\u001b[8mhidden\u001b[0m')).toBe('ok␛[8mhidden␛[0m');
    expect(neutralizeControlSequences('safe\rrm -rf ~')).toBe('safe␍rm -rf ~');
    expect(neutralizeControlSequences('a\r\nb')).toBe('a\nb');
  });

  it('shows C1 controls (8-bit CSI) and bidirectional overrides', () => {
    expect(neutralizeControlSequences('x\u009b31my')).toBe('x<U+009B>31my');
    expect(neutralizeControlSequences('if (a\u202e) {')).toBe('if (a<U+202E>) {');
    expect(hasControlSequences('\u2066')).toBe(true);
  });

  it('leaves no control character in any input', () => {
    let all = '';
    for (let code = 0; code < 0xa0; code += 1) all += String.fromCharCode(code);
    const out = neutralizeControlSequences(all);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
    expect(out).toContain('\n');
    expect(out).toContain('\t');
  });
});
