import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInProject } from '../../src/tools/files/workspace.js';
import { makeProject, type TestProject } from './helpers.js';

let project: TestProject;
let outside: string;

beforeEach(async () => {
  project = await makeProject({ 'src/a.ts': 'a', 'dir with space/ü.txt': 'u' });
  outside = await realpath(await mkdtemp(join(tmpdir(), 'mca-outside-')));
  await writeFile(join(outside, 'secret.txt'), 'secret');
});

afterEach(async () => {
  await project.cleanup();
  await rm(outside, { recursive: true, force: true });
});

describe('resolveInProject', () => {
  it('resolves relative paths, the root itself and absolute paths inside the project', () => {
    expect(resolveInProject(project.root, 'src/a.ts')).toEqual({
      ok: true,
      absolute: project.path('src/a.ts'),
      relative: 'src/a.ts',
      root: project.root,
      rootRelative: 'src/a.ts',
    });
    expect(resolveInProject(project.root, '.')).toMatchObject({ ok: true, relative: '.' });
    expect(resolveInProject(project.root, project.path('src/a.ts'))).toMatchObject({ ok: true, relative: 'src/a.ts' });
    expect(resolveInProject(project.root, 'src/../src/a.ts')).toMatchObject({ ok: true, relative: 'src/a.ts' });
  });

  it('accepts paths with spaces and unicode, and files that do not exist yet', () => {
    expect(resolveInProject(project.root, 'dir with space/ü.txt')).toMatchObject({
      ok: true,
      relative: 'dir with space/ü.txt',
    });
    expect(resolveInProject(project.root, 'new/deep/file.ts')).toMatchObject({
      ok: true,
      relative: 'new/deep/file.ts',
    });
  });

  it('refuses ../ escapes and absolute paths outside with ACCESS_DENIED', () => {
    const up = resolveInProject(project.root, '../x.txt');
    expect(up).toMatchObject({ ok: false, error: { code: 'ACCESS_DENIED' } });
    if (!up.ok) expect(up.error.message).toContain('outside the project root');
    expect(resolveInProject(project.root, join(outside, 'secret.txt'))).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(resolveInProject(project.root, '/etc/passwd')).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(resolveInProject(project.root, '~/.ssh/id_rsa')).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
  });

  it('refuses symlinks that lead out of the project, for files and directories, existing or not', async () => {
    await symlink(join(outside, 'secret.txt'), project.path('link.txt'));
    await symlink(outside, project.path('linkdir'));
    await symlink(join(outside, 'not-yet.txt'), project.path('dangling.txt'));
    for (const path of ['link.txt', 'linkdir/secret.txt', 'linkdir/new.txt', 'dangling.txt']) {
      const result = resolveInProject(project.root, path);
      expect(result, path).toMatchObject({ ok: false, error: { code: 'ACCESS_DENIED' } });
    }
  });

  it('follows symlinks that stay inside the project to their real path', async () => {
    await symlink(project.path('src'), project.path('alias'));
    expect(resolveInProject(project.root, 'alias/a.ts')).toMatchObject({ ok: true, relative: 'src/a.ts' });
  });

  it('refuses NUL and control characters and empty paths with INVALID_PARAM', () => {
    for (const path of ['a\u0000b', 'a\nb', 'bad\u001b[31m', '', '  ']) {
      expect(resolveInProject(project.root, path), JSON.stringify(path)).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAM' },
      });
    }
  });

  it('reports a symlink loop as INVALID_PARAM', async () => {
    await mkdir(project.path('loop'));
    await symlink(project.path('loop/b'), project.path('loop/a'));
    await symlink(project.path('loop/a'), project.path('loop/b'));
    expect(resolveInProject(project.root, 'loop/a')).toMatchObject({ ok: false, error: { code: 'INVALID_PARAM' } });
  });
});
