import { describe, expect, it } from 'vitest';
import { COMPRESSION_LIMITS, compressToolResult, shrinkToolMessage } from '../../src/context/tool-result-compressor.js';
import { errorEnvelope, successEnvelope, type ToolEnvelope } from '../../src/tools/registry/envelope.js';

type Parsed = { status: string; data: Record<string, unknown>; error?: { code: string; message: string } };

function compress(tool: string, envelope: ToolEnvelope<unknown>): Parsed {
  const text = compressToolResult(tool, envelope);
  return JSON.parse(text) as Parsed;
}

function ok(data: unknown): ToolEnvelope<unknown> {
  return successEnvelope(data, 'FULL TEXT that must be dropped', { stats: { durationMs: 12 }, context: { p: 1 } });
}

const names = (count: number, prefix = 'f'): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const numbered = (count: number): string =>
  names(count, 'line')
    .map((text, i) => `${i + 1}\t${text}`)
    .join('\n');

describe('compressToolResult: envelope fields', () => {
  it('keeps status and data, drops text, stats and context', () => {
    const text = compressToolResult('LS', ok({ path: '.', total: 1, entries: ['a'], offset: 0, truncated: false }));
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['status', 'data']);
    expect(text).not.toContain('FULL TEXT');
  });

  it('keeps a long error whole up to its character cap, and cuts a giant one visibly', () => {
    const message = 'x'.repeat(COMPRESSION_LIMITS.errorMessageChars);
    const parsed = compress('Read', errorEnvelope('NOT_FOUND', message));
    expect(parsed.status).toBe('error');
    expect(parsed.error).toEqual({ code: 'NOT_FOUND', message });
    const giant = compress('Read', errorEnvelope('NOT_FOUND', 'y'.repeat(400_000)));
    expect((giant.error as { message: string }).message).toHaveLength(COMPRESSION_LIMITS.errorMessageChars);
    expect((giant.error as { message: string }).message.endsWith('\u2026')).toBe(true);
  });

  it('caps every rule by characters as well as lines: one 400,000-character line stays small', () => {
    const line = 'z'.repeat(400_000);
    const cases: Array<[string, Record<string, unknown>]> = [
      ['Write', { path: 'big.txt', action: 'created', lines: 1, content: line }],
      ['Read', { path: 'min.js', start_line: 1, end_line: 1, total_lines: 1, content: `     1\t${line}` }],
      ['Edit', { path: 'a', applied: true, replacements: 1, diff: `+${line}` }],
      ['MultiEdit', { path: 'a', applied: true, replacements: 1, edits: 1, diff: `+${line}` }],
      ['LS', { path: line, total: 1, entries: [line] }],
      ['Glob', { pattern: line, total: 1, files: [line] }],
      ['Grep', { pattern: line, total: 1, matches: [{ file: line, line: 1, text: line }] }],
      ['Bash', { command: line, exit_code: 0, stdout: line, stderr: line }],
      ['TodoWrite', { recap: line }],
      ['Unknown', { blob: line }],
    ];
    for (const [tool, data] of cases) {
      const compressed = compressToolResult(tool, ok(data));
      expect(compressed.length, tool).toBeLessThan(25_000);
      expect(() => JSON.parse(compressed) as unknown, tool).not.toThrow();
    }
  });
});

describe('compressToolResult: per-tool rules', () => {
  it('LS keeps path, total and the first 10 entries', () => {
    const under = compress('LS', ok({ path: 'src', total: 10, entries: names(10), offset: 0, truncated: false }));
    expect(under.data).toEqual({ path: 'src', total: 10, entries: names(10), truncated: false });
    const over = compress('LS', ok({ path: 'src', total: 11, entries: names(11), offset: 0, truncated: false }));
    expect(over.data.entries).toEqual(names(10));
    expect(over.data.total).toBe(11);
    expect(over.data.truncated).toBe(true);
  });

  it('Glob keeps pattern, total and the first 10 files', () => {
    const data = { pattern: '**/*.ts', path: '.', total: 11, files: names(11), truncated: false };
    const parsed = compress('Glob', ok(data));
    expect(parsed.data).toEqual({ pattern: '**/*.ts', total: 11, files: names(10), truncated: true });
    const under = compress('Glob', ok({ ...data, total: 10, files: names(10) }));
    expect(under.data.files).toEqual(names(10));
    expect(under.data.truncated).toBe(false);
  });

  it('Grep keeps the first 5 matches as file:line:text', () => {
    const matches = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ file: 'a.ts', line: i + 1, text: `m${i}` }));
    const data = { pattern: 'm', path: '.', total: 6, matches: matches(6), truncated: false, engine: 'js' };
    const parsed = compress('Grep', ok(data));
    expect(parsed.data.matches).toEqual(['a.ts:1:m0', 'a.ts:2:m1', 'a.ts:3:m2', 'a.ts:4:m3', 'a.ts:5:m4']);
    expect(parsed.data.total).toBe(6);
    expect(parsed.data.truncated).toBe(true);
    expect(compress('Grep', ok({ ...data, total: 5, matches: matches(5) })).data.truncated).toBe(false);
  });

  it('Read keeps the range and at most 500 numbered lines, saying how many were cut', () => {
    const base = { path: 'a.ts', start_line: 1, total_lines: 900, truncated: true, mtime_ms: 5 };
    const under = compress('Read', ok({ ...base, end_line: 500, content: numbered(500) }));
    expect((under.data.content as string).split('\n')).toHaveLength(500);
    expect(under.data.lines_cut).toBeUndefined();
    const over = compress('Read', ok({ ...base, end_line: 501, content: numbered(501) }));
    expect((over.data.content as string).split('\n')).toHaveLength(500);
    expect(over.data.lines_cut).toBe(1);
    expect(over.data).toMatchObject({ path: 'a.ts', start_line: 1, end_line: 501, total_lines: 900, truncated: true });
  });

  it('Read keeps modified_externally', () => {
    const data = {
      path: 'a',
      start_line: 1,
      end_line: 1,
      total_lines: 1,
      content: '1\tx',
      truncated: false,
      mtime_ms: 1,
      modified_externally: true,
    };
    expect(compress('Read', ok(data)).data.modified_externally).toBe(true);
  });

  it('Edit and MultiEdit keep path, applied, replacements and the first 20 diff lines', () => {
    const diff = (count: number) => names(count, '+l').join('\n');
    const under = compress('Edit', ok({ path: 'a.ts', applied: true, replacements: 1, diff: diff(20) }));
    expect(under.data).toEqual({ path: 'a.ts', applied: true, replacements: 1, diff: diff(20) });
    const over = compress('MultiEdit', ok({ path: 'a.ts', applied: true, replacements: 3, edits: 2, diff: diff(21) }));
    expect(over.data.diff).toBe(diff(20));
    expect(over.data.diff_lines_cut).toBe(1);
    expect(over.data.edits).toBe(2);
  });

  it('Write keeps the first 30 lines of a new file only', () => {
    const content = (count: number) => names(count, 'w').join('\n');
    const created = compress(
      'Write',
      ok({ path: 'n.ts', action: 'created', lines: 31, bytes: 9, content: content(31) }),
    );
    expect(created.data.content).toBe(content(30));
    expect(created.data.content_lines_cut).toBe(1);
    const exact = compress('Write', ok({ path: 'n.ts', action: 'created', lines: 30, bytes: 9, content: content(30) }));
    expect(exact.data.content).toBe(content(30));
    expect(exact.data.content_lines_cut).toBeUndefined();
    const overwritten = compress(
      'Write',
      ok({ path: 'o.ts', action: 'overwritten', lines: 3, bytes: 9, content: 'a\nb\nc' }),
    );
    expect(overwritten.data).toEqual({ path: 'o.ts', action: 'overwritten', lines: 3 });
  });

  it('Bash keeps command, exit code, stdout line count + first 200 chars, last 20 stderr lines', () => {
    const stdout = 'y'.repeat(150) + '\n' + 'z'.repeat(150) + '\n';
    const stderr = names(21, 'e').join('\n');
    const parsed = compress('Bash', ok({ command: 'npm test', exit_code: 1, stdout, stderr, timed_out: true }));
    expect(parsed.data.command).toBe('npm test');
    expect(parsed.data.exit_code).toBe(1);
    expect(parsed.data.stdout_lines).toBe(2);
    expect(parsed.data.stdout_head).toHaveLength(200);
    expect(parsed.data.stderr_tail).toBe(names(21, 'e').slice(1).join('\n'));
    expect(parsed.data.stderr_lines_cut).toBe(1);
    expect(parsed.data.timed_out).toBe(true);
    const small = compress(
      'Bash',
      ok({ command: 'ls', exit_code: 0, stdout: 'x'.repeat(200), stderr: names(20, 'e').join('\n') }),
    );
    expect(small.data.stdout_head).toBe('x'.repeat(200));
    expect(small.data.stderr_tail).toBe(names(20, 'e').join('\n'));
    expect(small.data.stderr_lines_cut).toBeUndefined();
    const killed = compress(
      'Bash',
      ok({ command: 'sleep', exit_code: null, stdout: '', stderr: '', interrupted: true }),
    );
    expect(killed.data).toMatchObject({ exit_code: null, stdout_lines: 0, interrupted: true });
  });

  it('TodoWrite keeps the recap only', () => {
    const data = { todos: [{ content: 'a', status: 'pending' }], recap: '[0/1] done · next: a' };
    expect(compress('TodoWrite', ok(data)).data).toEqual({ recap: '[0/1] done · next: a' });
  });

  it('unknown tools keep data up to 1,000 chars, else a size note', () => {
    const fits = { blob: 'x'.repeat(COMPRESSION_LIMITS.unknownDataChars - 11) };
    expect(JSON.stringify(fits)).toHaveLength(1000);
    expect(compress('Mystery', ok(fits)).data).toEqual(fits);
    const over = { blob: 'x'.repeat(COMPRESSION_LIMITS.unknownDataChars - 10) };
    expect(compress('Mystery', ok(over)).data).toEqual({ truncated: true, original_size: 1001 });
    const marked = { blob: 'x'.repeat(2_000), fallback: true };
    const parsed = compress('Mystery', ok(marked));
    expect(parsed.data).toEqual({ truncated: true, original_size: JSON.stringify(marked).length, fallback: true });
  });
});

describe('compressToolResult: robustness', () => {
  it('falls back to the unknown rule for malformed data and never throws', () => {
    const bad = ok({ path: 42, total: 'many', entries: 'nope', truncated: true });
    const parsed = compress('LS', bad);
    expect(parsed.data).toEqual({ path: 42, total: 'many', entries: 'nope', truncated: true });
    const cases: unknown[] = [null, undefined, 'text', 7, [], { status: 'weird' }, { status: 'success', data: null }];
    for (const envelope of cases) {
      const text = compressToolResult('Read', envelope as ToolEnvelope<unknown>);
      expect(() => JSON.parse(text) as unknown).not.toThrow();
    }
  });

  it('survives cyclic and BigInt data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(compress('X', ok(cyclic)).data).toEqual({ truncated: true, original_size: 0 });
    expect(compress('X', ok({ n: 10n })).data.truncated).toBe(true);
  });

  it('keeps markers even on a tool-specific rule', () => {
    const data = { path: '.', total: 1, entries: ['a'], offset: 0, truncated: false, fallback: true };
    expect(compress('LS', ok(data)).data.fallback).toBe(true);
  });
});

describe('shrinkToolMessage', () => {
  it('shrinks to status, tool and a one-line summary', () => {
    const compressed = compressToolResult(
      'Read',
      ok({
        path: 'a.ts',
        start_line: 1,
        end_line: 40,
        total_lines: 90,
        content: numbered(40),
        truncated: true,
        mtime_ms: 1,
      }),
    );
    expect(JSON.parse(shrinkToolMessage(compressed, 'Read'))).toEqual({
      status: 'success',
      tool: 'Read',
      summary: 'read a.ts lines 1-40 of 90',
    });
  });

  it('summarises errors and survives garbage', () => {
    const compressed = compressToolResult('Bash', errorEnvelope('TIMEOUT', 'took\ntoo long'));
    expect(JSON.parse(shrinkToolMessage(compressed, 'Bash'))).toEqual({
      status: 'error',
      tool: 'Bash',
      summary: 'TIMEOUT: took too long',
    });
    const garbage = JSON.parse(shrinkToolMessage('not json at all', 'Weird')) as { status: string; summary: string };
    expect(garbage).toEqual({ status: 'unknown', tool: 'Weird', summary: 'result of 15 characters' });
  });
});
