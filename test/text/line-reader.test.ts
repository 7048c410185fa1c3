import { describe, expect, it } from 'vitest';
import { LineReader, LineTooLongError } from '../../src/text/line-reader.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('LineReader', () => {
  it('joins a line split over chunks and strips a carriage return', () => {
    const reader = new LineReader(100);
    expect(reader.push(bytes('ab'))).toEqual([]);
    expect(reader.push(bytes('c\r\nde\nf'))).toEqual(['abc', 'de']);
    expect(reader.finish()).toBe('f');
    expect(reader.finish()).toBeUndefined();
  });

  it('with a tooLong callback, an over-long line is reported once and dropped up to its newline', () => {
    const reader = new LineReader(4, 'the host');
    const errors: string[] = [];
    const tooLong = (error: LineTooLongError) => void errors.push(error.message);
    expect(reader.push(bytes('ok\n123'), tooLong)).toEqual(['ok']);
    expect(reader.push(bytes('4567'), tooLong)).toEqual([]);
    expect(reader.push(bytes('89\nnext\n1234567\nlast'), tooLong)).toEqual(['next']);
    expect(errors).toEqual([
      'the host sent a message over 4 bytes (7 so far)',
      'the host sent a message over 4 bytes (7 so far)',
    ]);
    expect(reader.finish()).toBe('last');
  });

  it('without a callback it throws (an MCP connection is then closed)', () => {
    const reader = new LineReader(4);
    expect(() => reader.push(bytes('123456'))).toThrow(LineTooLongError);
  });
});
