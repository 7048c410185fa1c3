import { describe, expect, it } from 'vitest';
import { CappedOutput } from '../../src/tools/processes/capped-output.js';
import { applyEdit, lineCount } from '../../src/tools/editing/edit-core.js';
import { scanLines } from '../../src/tools/files/line-scanner.js';
import { makeProject } from './helpers.js';

describe('scanLines', () => {
  it('splits lines across 64 KB chunk boundaries, multibyte characters included, and bounds long lines', async () => {
    const long = 'é'.repeat(70_000);
    const project = await makeProject({ 'f.txt': `${long}\nshort\r\n${'x'.repeat(200_000)}\nlast` });
    const seen: Array<[number, number, number]> = [];
    const result = await scanLines(project.path('f.txt'), {
      from: 1,
      to: 10,
      maxLineBytes: 150_000,
      onLine: (n, text, bytes) => void seen.push([n, text.length, bytes]),
    });
    expect(result).toEqual({ totalLines: 4, stopped: false, aborted: false });
    expect(seen).toEqual([
      [1, 70_000, 140_000],
      [2, 5, 6],
      [3, 150_000, 200_000],
      [4, 4, 4],
    ]);
    await project.cleanup();
  });

  it('counts lines outside the range without reporting them, and stops on request', async () => {
    const project = await makeProject({ 'f.txt': 'a\nb\nc\nd\n' });
    const seen: string[] = [];
    const counted = await scanLines(project.path('f.txt'), {
      from: 2,
      to: 3,
      maxLineBytes: 10,
      onLine: (_n, text) => void seen.push(text),
    });
    expect(seen).toEqual(['b', 'c']);
    expect(counted.totalLines).toBe(4);
    const stopped = await scanLines(project.path('f.txt'), { from: 1, to: 9, maxLineBytes: 10, onLine: (n) => n < 2 });
    expect(stopped).toMatchObject({ stopped: true, totalLines: 2 });
    await project.cleanup();
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap and head + tail over it', () => {
    const small = new CappedOutput(10);
    small.push('0123456789');
    expect(small.text()).toBe('0123456789');
    expect(small.truncated).toBe(false);
    const big = new CappedOutput(10);
    for (const chunk of ['abc', 'defgh', 'ijklmnop', 'qrstuvwxyz']) big.push(chunk);
    expect(big.truncated).toBe(true);
    expect(big.text()).toBe('abcde\n… [16 chars truncated] …\nvwxyz');
  });

  it('decodes multibyte characters split across chunks', () => {
    const output = new CappedOutput(100);
    const bytes = Buffer.from('ü€', 'utf8');
    output.push(bytes.subarray(0, 1));
    output.push(bytes.subarray(1, 3));
    output.push(bytes.subarray(3));
    output.end();
    expect(output.text()).toBe('ü€');
  });
});

describe('applyEdit', () => {
  it('matches a raw \\n string in a mixed-ending file without converting it', () => {
    const outcome = applyEdit('a\r\nb\nc\n', { old_string: 'b\nc', new_string: 'B\nC', replace_all: false });
    expect(outcome).toEqual({ ok: true, content: 'a\r\nB\nC\n', replacements: 1 });
  });

  it('refuses an empty old_string', () => {
    expect(applyEdit('abc', { old_string: '', new_string: 'x', replace_all: false }).ok).toBe(false);
  });

  it('counts lines like wc -l plus an unterminated last line', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([0, 1, 1, 2]);
  });
});
