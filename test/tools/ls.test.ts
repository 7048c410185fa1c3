import { symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lsTool } from '../../src/tools/walking/ls.js';
import { createDefaultRegistry, ToolRegistry } from '../../src/tools/registry/registry.js';
import { dataOf, makeContext, makeProject, type TestProject, runTool } from './helpers.js';

let project: TestProject;
const registry = createDefaultRegistry();
const ls = (input: Record<string, unknown>) => runTool(registry, 'LS', input, makeContext(project.root));

beforeEach(async () => {
  project = await makeProject({
    'b.txt': 'b',
    'a.txt': 'a',
    'src/index.ts': 'x',
    'docs/ü ñ.md': 'u',
    '.env': 'SECRET=1',
    'node_modules/pkg/index.js': 'x',
    'dist/out.js': 'x',
    'debug.log': 'x',
    '.gitignore': 'dist/\n*.log\n',
    'src/.gitignore': 'gen/\n',
    'src/gen/g.ts': 'x',
  });
});
afterEach(() => project.cleanup());

describe('LS', () => {
  it('lists directories first, then files, sorted; hides dotfiles, node_modules, .git and .gitignore entries', async () => {
    const result = await ls({});
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({
      path: '.',
      total: 4,
      entries: ['docs/', 'src/', 'a.txt', 'b.txt'],
      offset: 0,
      truncated: false,
    });
    expect(result.text).toContain('hidden');
    const sub = await ls({ path: 'src' });
    expect(sub.data).toMatchObject({ entries: ['index.ts'] });
  });

  it('shows everything with include_hidden and applies extra ignore patterns', async () => {
    const all = await ls({ include_hidden: true });
    expect(all.data).toMatchObject({
      entries: ['dist/', 'docs/', 'node_modules/', 'src/', '.env', '.gitignore', 'a.txt', 'b.txt', 'debug.log'],
    });
    const filtered = await ls({ include_hidden: true, ignore: ['*.txt', 'node_modules/'] });
    expect(filtered.data).toMatchObject({ entries: ['dist/', 'docs/', 'src/', '.env', '.gitignore', 'debug.log'] });
  });

  it('lists unicode names and a directory that is itself ignored when named explicitly', async () => {
    expect((await ls({ path: 'docs' })).data).toMatchObject({ entries: ['ü ñ.md'] });
    expect((await ls({ path: 'dist' })).data).toMatchObject({ entries: ['out.js'] });
  });

  it('pages with offset and limit, partial when truncated', async () => {
    const page = await ls({ limit: 2 });
    expect(page.status).toBe('partial');
    expect(page.data).toMatchObject({ total: 4, entries: ['docs/', 'src/'], truncated: true });
    expect(page.text).toContain('offset=2');
    const rest = await ls({ offset: 2, limit: 2 });
    expect(rest.status).toBe('success');
    expect(rest.data).toMatchObject({ entries: ['a.txt', 'b.txt'], truncated: false });
    const past = await ls({ offset: 4 });
    expect(past.error?.code).toBe('INVALID_PARAM');
    expect((await ls({ limit: 1001 })).error?.code).toBe('INVALID_PARAM');
    expect((await ls({ limit: 1000 })).status).toBe('success');
  });

  it('returns NOT_FOUND, INVALID_PARAM for a file and ACCESS_DENIED outside the project', async () => {
    expect((await ls({ path: 'nope' })).error?.code).toBe('NOT_FOUND');
    expect((await ls({ path: 'a.txt' })).error?.code).toBe('INVALID_PARAM');
    expect((await ls({ path: '..' })).error?.code).toBe('ACCESS_DENIED');
    await symlink('/', project.path('root-link'));
    expect((await ls({ path: 'root-link' })).error?.code).toBe('ACCESS_DENIED');
  });

  it('marks symlinked directories inside the project as directories', async () => {
    await symlink(project.path('src'), project.path('alias'));
    const result = await runTool(
      new ToolRegistry().register(lsTool),
      'LS',
      { path: '.', offset: 0, limit: 100, include_hidden: false, ignore: [] },
      makeContext(project.root),
    );
    expect(dataOf<{ entries: string[] }>(result).entries).toContain('alias/');
  });
});
