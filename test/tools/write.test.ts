import { chmod, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const run = (tool: string, input: Record<string, unknown>) => runTool(registry, tool, input, ctx);

beforeEach(async () => {
  project = await makeProject({ 'script.sh': '#!/bin/sh\necho old\n', 'notes.txt': 'old\n' });
  await chmod(project.path('script.sh'), 0o755);
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('Write', () => {
  it('creates a new file and its parent directories without a prior Read, leaving no temp file', async () => {
    const result = await run('Write', { path: 'new dir/ü/file.ts', content: 'a\nb\n' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({
      path: 'new dir/ü/file.ts',
      action: 'created',
      lines: 2,
      bytes: 4,
      content: 'a\nb\n',
    });
    expect(await project.read('new dir/ü/file.ts')).toBe('a\nb\n');
    expect(await readdir(project.path('new dir/ü'))).toEqual(['file.ts']);
    expect(ctx.requests).toHaveLength(1);
    expect(ctx.requests[0]).toMatchObject({ tool: 'Write' });
    expect(ctx.requests[0]?.detail).toContain('+a');
  });

  it('refuses to overwrite an existing file that was not Read (CONFLICT)', async () => {
    const result = await run('Write', { path: 'notes.txt', content: 'new\n' });
    expect(result.error?.code).toBe('CONFLICT');
    expect(result.error?.message).toContain('Read it first');
    expect(await project.read('notes.txt')).toBe('old\n');
    expect(ctx.requests).toHaveLength(0);
  });

  it('overwrites after a Read, keeping the file mode, atomically', async () => {
    await run('Read', { path: 'script.sh' });
    const result = await run('Write', { path: 'script.sh', content: '#!/bin/sh\necho new\n' });
    expect(result.data).toMatchObject({ action: 'overwritten' });
    expect(ctx.requests[0]?.detail).toContain('-echo old');
    expect(ctx.requests[0]?.detail).toContain('+echo new');
    expect((await stat(project.path('script.sh'))).mode & 0o777).toBe(0o755);
    expect((await readdir(project.root)).sort()).toEqual(['notes.txt', 'script.sh']);
  });

  it('refuses when the file changed since the Read', async () => {
    await run('Read', { path: 'notes.txt' });
    await writeFile(project.path('notes.txt'), 'changed outside\n');
    const result = await run('Write', { path: 'notes.txt', content: 'mine\n' });
    expect(result.error?.code).toBe('CONFLICT');
    expect(await project.read('notes.txt')).toBe('changed outside\n');
  });

  it('returns PERMISSION_DENIED with the reason when declined, writing nothing', async () => {
    ctx = makeContext(project.root, async () => ({ approved: false, reason: 'not in this folder' }));
    const result = await run('Write', { path: 'x.txt', content: 'x' });
    expect(result.error?.code).toBe('PERMISSION_DENIED');
    expect(result.error?.message).toContain('not in this folder');
    await expect(stat(project.path('x.txt'))).rejects.toThrow();
  });

  it('refuses directories, paths outside and symlinks out', async () => {
    await run('Write', { path: 'dir/a.txt', content: 'x' });
    expect((await run('Write', { path: 'dir', content: 'x' })).error?.code).toBe('IS_DIRECTORY');
    expect((await run('Write', { path: '../escape.txt', content: 'x' })).error?.code).toBe('ACCESS_DENIED');
    await symlink('/tmp/mca-should-not-exist.txt', project.path('out.txt'));
    expect((await run('Write', { path: 'out.txt', content: 'x' })).error?.code).toBe('ACCESS_DENIED');
  });
});
