import { describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../src/tools/registry/envelope.js';
import { bashTail, resultDiff, summarizeCall, summarizeResult } from '../../src/ui/format-tool.js';
import { envelope } from './fake-controller.js';

describe('summarizeCall', () => {
  it('shows the main argument per tool', () => {
    expect(summarizeCall('Read', { path: 'src/a.ts' }, 80)).toBe('Read(src/a.ts)');
    expect(summarizeCall('Grep', { pattern: 'TODO', path: 'src' }, 80)).toBe('Grep(TODO in src)');
    expect(summarizeCall('Glob', { pattern: '**/*.ts' }, 80)).toBe('Glob(**/*.ts)');
    expect(summarizeCall('TodoWrite', { todos: [{}, {}] }, 80)).toBe('TodoWrite(2 todos)');
  });

  it('cuts a long command to the width', () => {
    const line = summarizeCall('Bash', { command: `echo ${'x'.repeat(200)}` }, 40);
    expect(line.length).toBeLessThanOrEqual(40);
    expect(line.endsWith('…)')).toBe(true);
  });
});

describe('summarizeResult', () => {
  it('summarizes successes', () => {
    expect(summarizeResult('Read', envelope({ start_line: 1, end_line: 120, total_lines: 120 })).line).toBe(
      '120 lines',
    );
    expect(summarizeResult('Grep', envelope({ total: 3, matches: [] })).line).toBe('3 matches');
    expect(summarizeResult('LS', envelope({ total: 1 })).line).toBe('1 entry');
    expect(summarizeResult('Write', envelope({ action: 'created', lines: 4 })).line).toBe('Created · 4 lines');
  });

  it('summarizes a failing Bash run as an error', () => {
    const summary = summarizeResult('Bash', envelope({ exit_code: 1, stdout: '', stderr: 'a\nb\n' }));
    expect(summary).toEqual({ line: 'exit 1 · 2 stderr lines', tone: 'error' });
  });

  it('shows error envelopes with their code', () => {
    expect(summarizeResult('Read', errorEnvelope('NOT_FOUND', 'no such file: x.ts'))).toEqual({
      line: 'NOT_FOUND: no such file: x.ts',
      tone: 'error',
    });
  });
});

describe('resultDiff and bashTail', () => {
  it('returns the diff of an edit and a new file as added lines', () => {
    expect(resultDiff('Edit', envelope({ diff: '@@ -1 +1 @@\n-a\n+b' }))).toBe('@@ -1 +1 @@\n-a\n+b');
    expect(resultDiff('Write', envelope({ content: 'x\ny\n' }))).toBe('+x\n+y');
    expect(resultDiff('Read', envelope({}))).toBeUndefined();
  });

  it('keeps the last lines of output', () => {
    const stdout = Array.from({ length: 9 }, (_, index) => `o${index}`).join('\n');
    expect(bashTail(envelope({ stdout, stderr: '' }), 3)).toEqual({
      stdout: ['o6', 'o7', 'o8'],
      stderr: [],
      hidden: 6,
    });
  });
});
