import { open, utimes, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_MAX_OUTPUT_CHARS } from '../../src/tools/files/read.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import type { ReadData } from '../../src/tools/registry/tool-data.js';
import { dataOf, makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const read = (input: Record<string, unknown>) => runTool(registry, 'Read', input, ctx);
const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

beforeEach(async () => {
  project = await makeProject({
    'src/app.ts': 'const a = 1;\nconst b = 2;\n',
    'big.txt': lines(2500),
    'no-newline.txt': 'one\ntwo',
    'empty.txt': '',
    'crlf.txt': 'a\r\nb\r\n',
    'dir with space/ü.md': '# ü\n',
    'bin.dat': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    'latin1.txt': Buffer.from(Array.from({ length: 200 }, (_, index) => 0x80 + (index % 64))),
  });
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('Read', () => {
  it('returns numbered lines, right-aligned like cat -n, and the line count', async () => {
    const result = await read({ path: 'src/app.ts' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({
      path: 'src/app.ts',
      start_line: 1,
      end_line: 2,
      total_lines: 2,
      truncated: false,
    });
    expect(dataOf<ReadData>(result).content).toBe('1\tconst a = 1;\n2\tconst b = 2;');
    const wide = await read({ path: 'big.txt', start_line: 8, limit: 3 });
    expect(dataOf<ReadData>(wide).content).toBe(' 8\tline 8\n 9\tline 9\n10\tline 10');
  });

  it('reads 500 lines by default, at most 2000, and tells where to continue', async () => {
    const first = await read({ path: 'big.txt' });
    expect(first.data).toMatchObject({ start_line: 1, end_line: 500, total_lines: 2500, truncated: true });
    expect(first.text).toContain('Use start_line=501 to continue');
    const max = await read({ path: 'big.txt', start_line: 501, limit: 2000 });
    expect(max.data).toMatchObject({ start_line: 501, end_line: 2500, truncated: false });
    expect((await read({ path: 'big.txt', limit: 2001 })).error?.code).toBe('INVALID_PARAM');
  });

  it('handles a last line without newline, empty files and CRLF', async () => {
    expect(await read({ path: 'no-newline.txt' })).toMatchObject({
      data: { total_lines: 2, content: '1\tone\n2\ttwo' },
    });
    expect(await read({ path: 'empty.txt' })).toMatchObject({
      status: 'success',
      data: { total_lines: 0, content: '' },
    });
    expect(await read({ path: 'crlf.txt' })).toMatchObject({ data: { content: '1\ta\n2\tb' } });
  });

  it('rejects start_line past the end with the line count', async () => {
    const result = await read({ path: 'src/app.ts', start_line: 5 });
    expect(result.error?.code).toBe('INVALID_PARAM');
    expect(result.error?.message).toContain('has 2 lines');
  });

  it('cuts lines over 2000 characters with a marker', async () => {
    await project.write('wide.txt', `${'x'.repeat(5000)}\nshort\n`);
    const content = dataOf<ReadData>(await read({ path: 'wide.txt' })).content;
    const [first, second] = content.split('\n');
    expect(first?.startsWith(`1\t${'x'.repeat(2000)}… [line truncated`)).toBe(true);
    expect(first?.length).toBeLessThan(2100);
    expect(second).toBe('2\tshort');
  });

  it('caps one Read at READ_MAX_OUTPUT_CHARS and tells where to continue', async () => {
    const row = 'y'.repeat(1000);
    await project.write('wide-many.txt', Array.from({ length: 300 }, () => row).join('\n') + '\n');
    const result = await read({ path: 'wide-many.txt', limit: 300 });
    const data = dataOf<ReadData>(result);
    expect(data.content.length).toBeLessThanOrEqual(READ_MAX_OUTPUT_CHARS + 2_000);
    expect(data.end_line).toBeLessThan(300);
    expect(data.end_line).toBeGreaterThan(90);
    expect(data).toMatchObject({ truncated: true, total_lines: 300 });
    expect(result.text).toContain(`Use start_line=${data.end_line + 1} to continue.`);
    expect(result.text).toContain('output capped');
    const next = dataOf<ReadData>(await read({ path: 'wide-many.txt', start_line: data.end_line + 1, limit: 300 }));
    expect(next.start_line).toBe(data.end_line + 1);
  });

  it('returns BINARY_FILE, IS_DIRECTORY and NOT_FOUND with suggestions', async () => {
    expect((await read({ path: 'bin.dat' })).error?.code).toBe('BINARY_FILE');
    expect((await read({ path: 'latin1.txt' })).error?.code).toBe('BINARY_FILE');
    expect((await read({ path: 'src' })).error?.code).toBe('IS_DIRECTORY');
    const missing = await read({ path: 'src/app.js' });
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.message).toContain('src/app.ts');
  });

  it('reads paths with spaces and unicode; refuses paths outside the project', async () => {
    expect(await read({ path: 'dir with space/ü.md' })).toMatchObject({ data: { content: '1\t# ü' } });
    expect((await read({ path: '../../etc/passwd' })).error?.code).toBe('ACCESS_DENIED');
    expect((await read({ path: '/etc/passwd' })).error?.code).toBe('ACCESS_DENIED');
  });

  it('notes an outside change on the next read, and only then', async () => {
    const first = await read({ path: 'src/app.ts' });
    expect(dataOf<ReadData>(first).modified_externally).toBeUndefined();
    const again = await read({ path: 'src/app.ts' });
    expect(dataOf<ReadData>(again).modified_externally).toBeUndefined();
    await writeFile(project.path('src/app.ts'), 'const a = 10;\n');
    const changed = await read({ path: 'src/app.ts' });
    expect(changed.data).toMatchObject({ modified_externally: true });
    expect(changed.text.startsWith('Note: src/app.ts was modified externally.')).toBe(true);
    const after = await read({ path: 'src/app.ts' });
    expect(dataOf<ReadData>(after).modified_externally).toBeUndefined();
  });

  it('notices a change of mtime alone', async () => {
    await read({ path: 'src/app.ts' });
    const future = Date.now() / 1000 + 60;
    await utimes(project.path('src/app.ts'), future, future);
    expect((await read({ path: 'src/app.ts' })).data).toMatchObject({ modified_externally: true });
  });

  it('reads the requested range of a 1 GB sparse file without loading it', async () => {
    const head = Array.from({ length: 400 }, (_, index) => `row ${index + 1} ${'.'.repeat(40)}`).join('\n') + '\n';
    const target = await project.write('huge.log', head);
    const handle = await open(target, 'r+');
    await handle.truncate(1024 * 1024 * 1024);
    await handle.close();
    const before = process.memoryUsage().rss;
    const result = await read({ path: 'huge.log', start_line: 3, limit: 2 });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ start_line: 3, end_line: 4, truncated: true });
    expect(dataOf<ReadData>(result).content).toBe(`3\trow 3 ${'.'.repeat(40)}\n4\trow 4 ${'.'.repeat(40)}`);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });
});
