/**
 * The file-access port (src/tools/files/file-access.ts): with one, Read and the edit tools take a file's text from the
 * host and give the new text to it, while the path guard, the disk checks, read-before-write and the freshness
 * check stay the tools' own. scanText numbers lines exactly as scanLines does for a file with the same text.
 */
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanText, type FileAccess } from '../../src/tools/files/file-access.js';
import { scanLines, type ScanOptions } from '../../src/tools/files/line-scanner.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import type { ReadData } from '../../src/tools/registry/tool-data.js';
import { dataOf, makeContext, makeProject, runTool, type TestContext, type TestProject } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
let buffers: Map<string, string>;
let writes: Array<{ path: string; content: string }>;
let reads: string[];

const host: FileAccess = {
  readText: async (absolute) => {
    reads.push(absolute);
    const text = buffers.get(absolute);
    if (text === undefined) throw new Error(`no buffer for ${absolute}`);
    return text;
  },
  writeText: async (absolute, content) => {
    writes.push({ path: absolute, content });
    buffers.set(absolute, content);
  },
};
const registry = createDefaultRegistry({ files: host });
const run = (tool: string, input: Record<string, unknown>) => runTool(registry, tool, input, ctx);

beforeEach(async () => {
  project = await makeProject({ 'a.txt': 'on disk\n', 'bin.dat': Buffer.from([0, 1, 2, 0]) });
  buffers = new Map([[project.path('a.txt'), 'in the editor\nsecond line\n']]);
  writes = [];
  reads = [];
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('the file-access port', () => {
  it('Read shows the host text, with line numbers and ranges as for a file', async () => {
    const result = await run('Read', { path: 'a.txt', start_line: 2 });
    expect(dataOf<ReadData>(result)).toMatchObject({ start_line: 2, end_line: 2, total_lines: 2 });
    expect(dataOf<ReadData>(result).content).toBe('2\tsecond line');
  });

  it('the guards come first: a path outside the project or a binary file never reaches the host', async () => {
    expect((await run('Read', { path: '../outside.txt' })).status).toBe('error');
    expect((await run('Read', { path: 'bin.dat' })).error?.code).toBe('BINARY_FILE');
    expect(reads).toEqual([]);
  });

  it('Edit needs a Read first, edits the host text and hands it back; the disk stays as it was', async () => {
    const refused = await run('Edit', { path: 'a.txt', old_string: 'editor', new_string: 'buffer' });
    expect(refused.error?.code).toBe('CONFLICT');
    await run('Read', { path: 'a.txt' });
    const edited = await run('Edit', { path: 'a.txt', old_string: 'editor', new_string: 'buffer' });
    expect(edited.status).toBe('success');
    expect(writes).toEqual([{ path: project.path('a.txt'), content: 'in the buffer\nsecond line\n' }]);
    expect(await project.read('a.txt')).toBe('on disk\n');
  });

  it('a file changed on disk after the Read is refused before the host is asked to write', async () => {
    await run('Read', { path: 'a.txt' });
    await writeFile(project.path('a.txt'), 'changed on disk meanwhile, longer\n');
    const result = await run('Edit', { path: 'a.txt', old_string: 'editor', new_string: 'buffer' });
    expect(result.error?.code).toBe('CONFLICT');
    expect(writes).toEqual([]);
  });

  it('a host that fails to write fails the call with a message, not a crash', async () => {
    const failing = createDefaultRegistry({
      files: { readText: host.readText, writeText: () => Promise.reject(new Error('buffer is read-only')) },
    });
    await runTool(failing, 'Read', { path: 'a.txt' }, ctx);
    const result = await runTool(failing, 'Write', { path: 'a.txt', content: 'new\n' }, ctx);
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain('buffer is read-only');
  });
});

describe('scanText', () => {
  it('numbers, cuts and counts lines as scanLines does', async () => {
    const file = project.path('scan.txt');
    const line = fc.stringMatching(/^[a-z\r ü]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 9 }),
        async (lines, finalNewline, bom, from, span) => {
          const text = (bom ? '\ufeff' : '') + lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
          await writeFile(file, text);
          const seen = (into: string[]): ScanOptions => ({
            from,
            to: from + span,
            maxLineBytes: 1000,
            onLine: (n, value) => void into.push(`${n}:${value}`),
          });
          const fromText: string[] = [];
          const fromFile: string[] = [];
          const a = scanText(text, seen(fromText));
          const b = await scanLines(file, seen(fromFile));
          expect(fromText).toEqual(fromFile);
          expect(a.totalLines).toBe(b.totalLines);
        },
      ),
      { numRuns: 150 },
    );
  });
});
