import { symlink, utimes } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { dataOf, makeContext, makeProject, type TestProject, runTool } from './helpers.js';

let project: TestProject;
const registry = createDefaultRegistry();
const glob = (input: Record<string, unknown>) => runTool(registry, 'Glob', input, makeContext(project.root));

beforeEach(async () => {
  project = await makeProject({
    'src/old.ts': 'x',
    'src/new.ts': 'x',
    'src/mid.ts': 'x',
    'src/deep/ü file.ts': 'x',
    'src/readme.md': 'x',
    'dist/out.ts': 'x',
    'node_modules/pkg/index.ts': 'x',
    '.gitignore': 'dist/\n',
  });
  const base = Date.now() / 1000;
  await utimes(project.path('src/old.ts'), base - 300, base - 300);
  await utimes(project.path('src/mid.ts'), base - 200, base - 200);
  await utimes(project.path('src/deep/ü file.ts'), base - 150, base - 150);
  await utimes(project.path('src/new.ts'), base - 100, base - 100);
});
afterEach(() => project.cleanup());

describe('Glob', () => {
  it('finds files newest first, honouring .gitignore and skipping node_modules', async () => {
    const result = await glob({ pattern: '**/*.ts' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ pattern: '**/*.ts', path: '.', total: 4, truncated: false });
    expect(dataOf<{ files: string[] }>(result).files).toEqual([
      'src/new.ts',
      'src/deep/ü file.ts',
      'src/mid.ts',
      'src/old.ts',
    ]);
  });

  it('searches below path and returns project-relative paths', async () => {
    const result = await glob({ pattern: '*.md', path: 'src' });
    expect(result.data).toMatchObject({ path: 'src', files: ['src/readme.md'] });
  });

  it('includes node_modules only when the pattern names it', async () => {
    const result = await glob({ pattern: 'node_modules/**/*.ts' });
    expect(result.data).toMatchObject({ files: ['node_modules/pkg/index.ts'] });
  });

  it('caps at limit with status partial and the full total', async () => {
    const result = await glob({ pattern: '**/*.ts', limit: 2 });
    expect(result.status).toBe('partial');
    expect(result.data).toMatchObject({ total: 4, files: ['src/new.ts', 'src/deep/ü file.ts'], truncated: true });
    expect((await glob({ pattern: '**/*.ts', limit: 500 })).status).toBe('success');
    expect((await glob({ pattern: '**/*.ts', limit: 501 })).error?.code).toBe('INVALID_PARAM');
  });

  it('reports no matches as success with total 0', async () => {
    const result = await glob({ pattern: '**/*.rs' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ total: 0, files: [] });
  });

  it('refuses escapes: .. in the pattern, absolute patterns, paths outside, symlinks out', async () => {
    expect((await glob({ pattern: '../**/*' })).error?.code).toBe('INVALID_PARAM');
    expect((await glob({ pattern: '/etc/*' })).error?.code).toBe('INVALID_PARAM');
    expect((await glob({ pattern: '*', path: '../' })).error?.code).toBe('ACCESS_DENIED');
    expect((await glob({ pattern: '*', path: '/tmp' })).error?.code).toBe('ACCESS_DENIED');
    await symlink('/etc', project.path('etc-link'));
    expect((await glob({ pattern: '*', path: 'etc-link' })).error?.code).toBe('ACCESS_DENIED');
    const through = await glob({ pattern: '**/passwd' });
    expect(through.data).toMatchObject({ total: 0 });
  });

  it('returns NOT_FOUND for a missing directory and INVALID_PARAM for a file path', async () => {
    expect((await glob({ pattern: '*', path: 'missing' })).error?.code).toBe('NOT_FOUND');
    expect((await glob({ pattern: '*', path: 'src/old.ts' })).error?.code).toBe('INVALID_PARAM');
  });
});
