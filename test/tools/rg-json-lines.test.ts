/**
 * Issue 23, class 9: ripgrep's --json output is read in bounded memory. A match event longer than the cap (a
 * minified file's one line with thousands of submatches) still gives its file, line number and the head of the
 * line; nothing is ever joined into one huge string.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES, rgMatchEvents, type RgMatchEvent } from '../../src/tools/grep/rg-json-lines.js';

function matchLine(path: string, text: string, lineNumber: number, submatches: number): string {
  const subs = Array.from({ length: submatches }, (_, i) => ({ match: { text: 'a' }, start: i, end: i + 1 }));
  return JSON.stringify({
    type: 'match',
    data: { path: { text: path }, lines: { text }, line_number: lineNumber, absolute_offset: 0, submatches: subs },
  });
}

/** The output cut into chunks of `size` bytes, as a pipe delivers it. */
function streamOf(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

async function events(stream: Readable): Promise<RgMatchEvent[]> {
  const seen: RgMatchEvent[] = [];
  for await (const event of rgMatchEvents(stream)) seen.push(event);
  return seen;
}

describe('rgMatchEvents', () => {
  it('parses ordinary events and skips begin/end/summary lines', async () => {
    const output = [
      '{"type":"begin","data":{"path":{"text":"a.ts"}}}',
      matchLine('a.ts', 'const needle = 1;\n', 3, 1),
      '{"type":"end","data":{}}',
      matchLine('dir/ü b.ts', 'needle\n', 7, 1),
      '',
    ].join('\n');
    expect(await events(streamOf(output, 7))).toEqual([
      { path: 'a.ts', lineNumber: 3, text: 'const needle = 1;\n' },
      { path: 'dir/ü b.ts', lineNumber: 7, text: 'needle\n' },
    ]);
  });

  for (const chunk of [65_536, 1000, 13]) {
    it(`keeps file, line and the head of an event longer than the cap (chunks of ${chunk} bytes)`, async () => {
      const long = `"quoted" \\ ${'a'.repeat(MAX_EVENT_BYTES)}`;
      const huge = matchLine('min/app.min.js', long, 42, 60_000);
      expect(huge.length).toBeGreaterThan(MAX_EVENT_BYTES * 2);
      const output = `${huge}\n${matchLine('b.ts', 'next\n', 1, 1)}\n`;
      const seen = await events(streamOf(output, chunk));
      expect(seen.map((event) => [event.path, event.lineNumber])).toEqual([
        ['min/app.min.js', 42],
        ['b.ts', 1],
      ]);
      expect(seen[0]?.text.startsWith('"quoted" \\ aaaa')).toBe(true);
      expect(seen[0]?.text.length).toBeLessThanOrEqual(2048);
    });
  }

  it('finds the line number when the key itself is cut by a chunk boundary, and in base64 (non-UTF-8) events', async () => {
    const head = JSON.stringify({
      type: 'match',
      data: { path: { bytes: Buffer.from('x\xff.js', 'latin1').toString('base64') } },
    });
    const bytesLine =
      head.slice(0, -2) +
      `,"lines":{"bytes":"${Buffer.from('b'.repeat(MAX_EVENT_BYTES * 2)).toString('base64')}"},"line_number":9,"submatches":[]}}`;
    const seen = await events(streamOf(`${bytesLine}\n`, 4099));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.lineNumber).toBe(9);
    expect(seen[0]?.text.startsWith('bbbb')).toBe(true);
  });

  it('a line number look-alike inside the text is not taken for the key', async () => {
    const text = `${'z'.repeat(MAX_EVENT_BYTES)} },"line_number":999, `;
    const seen = await events(streamOf(`${matchLine('t.js', text, 5, 1)}\n`, 65_536));
    expect(seen[0]?.lineNumber).toBe(5);
  });
});
