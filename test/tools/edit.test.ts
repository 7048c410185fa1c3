import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import type { EditData, ReadData } from '../../src/tools/registry/tool-data.js';
import { dataOf, makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const run = (tool: string, input: Record<string, unknown>) => runTool(registry, tool, input, ctx);

beforeEach(async () => {
  project = await makeProject({
    'src/app.ts': 'const a = 1;\nconst b = 2;\nconst c = 2;\n',
    'win.txt': 'first\r\nsecond\r\nthird\r\n',
    'price.txt': 'cost: 5\n',
    'ü dir/ñ.txt': 'hola\n',
  });
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('Edit', () => {
  it('refuses an existing file that was not Read in the session', async () => {
    const result = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 9' });
    expect(result.error?.code).toBe('CONFLICT');
    expect(result.error?.message).toContain('Read it first');
  });

  it('replaces a unique string, asks approval with the diff, and returns the diff', async () => {
    await run('Read', { path: 'src/app.ts' });
    const result = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 9' });
    expect(result.status).toBe('success');
    const data = dataOf<EditData>(result);
    expect(data).toMatchObject({ path: 'src/app.ts', applied: true, replacements: 1 });
    expect(data.diff).toContain('-const a = 1;');
    expect(data.diff).toContain('+const a = 9;');
    expect(ctx.requests[0]).toMatchObject({ tool: 'Edit', title: 'Edit(src/app.ts)' });
    expect(ctx.requests[0]?.detail).toBe(data.diff);
    expect(await project.read('src/app.ts')).toBe('const a = 9;\nconst b = 2;\nconst c = 2;\n');
  });

  it('refuses ambiguous, missing and identical strings with INVALID_PARAM and a hint', async () => {
    await run('Read', { path: 'src/app.ts' });
    const twice = await run('Edit', { path: 'src/app.ts', old_string: '= 2', new_string: '= 3' });
    expect(twice.error?.code).toBe('INVALID_PARAM');
    expect(twice.error?.message).toContain('found 2 times');
    expect(twice.error?.message).toContain('replace_all');
    const missing = await run('Edit', { path: 'src/app.ts', old_string: 'const d', new_string: 'x' });
    expect(missing.error?.message).toContain('not found');
    const spaced = await run('Edit', { path: 'src/app.ts', old_string: 'const  a =  1;', new_string: 'x' });
    expect(spaced.error?.message).toContain('whitespace');
    const numbered = await run('Edit', { path: 'src/app.ts', old_string: '1\tconst a = 1;', new_string: 'x' });
    expect(numbered.error?.message).toContain('line-number');
    const same = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 1' });
    expect(same.error?.code).toBe('INVALID_PARAM');
    expect(ctx.requests).toHaveLength(0);
  });

  it('replaces every occurrence with replace_all', async () => {
    await run('Read', { path: 'src/app.ts' });
    const result = await run('Edit', { path: 'src/app.ts', old_string: '= 2', new_string: '= 3', replace_all: true });
    expect(result.data).toMatchObject({ replacements: 2 });
    expect(await project.read('src/app.ts')).toBe('const a = 1;\nconst b = 3;\nconst c = 3;\n');
  });

  it('inserts "$" patterns literally', async () => {
    await run('Read', { path: 'price.txt' });
    await run('Edit', { path: 'price.txt', old_string: '5', new_string: "$& and $1 and $'" });
    expect(await project.read('price.txt')).toBe("cost: $& and $1 and $'\n");
  });

  it('preserves CRLF line endings when strings use \\n', async () => {
    await run('Read', { path: 'win.txt' });
    const result = await run('Edit', { path: 'win.txt', old_string: 'first\nsecond', new_string: 'one\ntwo\nthree' });
    expect(result.status).toBe('success');
    expect(await project.read('win.txt')).toBe('one\r\ntwo\r\nthree\r\nthird\r\n');
  });

  it('refuses after an outside change, and Read then notes the change', async () => {
    await run('Read', { path: 'src/app.ts' });
    await writeFile(project.path('src/app.ts'), 'const a = 1;\n// edited elsewhere\n');
    const refused = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(refused.error?.code).toBe('CONFLICT');
    expect(refused.error?.message).toContain('modified externally');
    const reread = await run('Read', { path: 'src/app.ts' });
    expect(reread.data).toMatchObject({ modified_externally: true });
    expect(reread.text).toContain('Note: src/app.ts was modified externally.');
    const retried = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(retried.status).toBe('success');
  });

  it("is followed by a Read with no note after the agent's own edit", async () => {
    await run('Read', { path: 'src/app.ts' });
    await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 7' });
    const reread = await run('Read', { path: 'src/app.ts' });
    expect(dataOf<ReadData>(reread).modified_externally).toBeUndefined();
    expect(reread.text).not.toContain('modified externally');
    const again = await run('Edit', { path: 'src/app.ts', old_string: 'a = 7', new_string: 'a = 8' });
    expect(again.status).toBe('success');
  });

  it('returns PERMISSION_DENIED when declined and leaves the file as it was', async () => {
    ctx = makeContext(project.root, async () => ({ approved: false }));
    await run('Read', { path: 'src/app.ts' });
    const result = await run('Edit', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(result.error?.code).toBe('PERMISSION_DENIED');
    expect(result.error?.message).toContain('Edit(src/app.ts)');
    expect(await project.read('src/app.ts')).toContain('a = 1');
  });

  it('works on unicode paths; NOT_FOUND for missing files; ACCESS_DENIED outside', async () => {
    await run('Read', { path: 'ü dir/ñ.txt' });
    expect((await run('Edit', { path: 'ü dir/ñ.txt', old_string: 'hola', new_string: 'adiós' })).status).toBe(
      'success',
    );
    expect(await project.read('ü dir/ñ.txt')).toBe('adiós\n');
    expect((await run('Edit', { path: 'nope.ts', old_string: 'a', new_string: 'b' })).error?.code).toBe('NOT_FOUND');
    expect((await run('Edit', { path: '../x', old_string: 'a', new_string: 'b' })).error?.code).toBe('ACCESS_DENIED');
  });
});
