/**
 * The guard with added directories: a path in an added root passes with the project's rules (shown by absolute
 * path, control files judged from that root), a link between roots lands in the root it points to, a link out of
 * every root is refused, and WorkspaceRoots refuses a missing directory or a file and never adds one twice.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isControlFile, resolveInProject } from '../../src/tools/files/workspace.js';
import { WorkspaceRoots } from '../../src/tools/files/workspace-roots.js';
import { makeProject, type TestProject } from './helpers.js';

let project: TestProject;
let base: string;
let extra: string;
let outside: string;

beforeEach(async () => {
  project = await makeProject({ 'src/a.ts': 'a' });
  base = await realpath(await mkdtemp(join(tmpdir(), 'mca-roots-')));
  extra = join(base, 'extra');
  outside = join(base, 'outside');
  await mkdir(join(extra, '.claude'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(extra, 'b.ts'), 'b');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await symlink(join(outside, 'secret.txt'), join(extra, 'out.txt'));
  await symlink(join(extra, 'b.ts'), project.path('to-extra.ts'));
});

afterEach(async () => {
  await project.cleanup();
  await rm(base, { recursive: true, force: true });
});

describe('resolveInProject with added roots', () => {
  it('accepts a path in an added root, shown by absolute path, judged from that root', () => {
    expect(resolveInProject(project.root, join(extra, 'b.ts'), [extra])).toEqual({
      ok: true,
      absolute: join(extra, 'b.ts'),
      relative: join(extra, 'b.ts'),
      root: extra,
      rootRelative: 'b.ts',
    });
    const settings = resolveInProject(project.root, join(extra, '.claude/settings.json'), [extra]);
    expect(settings).toMatchObject({ ok: true, rootRelative: '.claude/settings.json' });
    if (settings.ok) expect(isControlFile(settings.rootRelative, settings.root)).toBe(true);
  });

  it('refuses the same path without the root, and links out of every root with it', () => {
    expect(resolveInProject(project.root, join(extra, 'b.ts'))).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(resolveInProject(project.root, join(outside, 'secret.txt'), [extra])).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    const out = resolveInProject(project.root, join(extra, 'out.txt'), [extra]);
    expect(out).toMatchObject({ ok: false, error: { code: 'ACCESS_DENIED' } });
    if (!out.ok) expect(out.error.message).toContain('resolves through a symlink');
  });

  it('follows a link from the project into an added root to that root', () => {
    expect(resolveInProject(project.root, 'to-extra.ts', [extra])).toMatchObject({
      ok: true,
      root: extra,
      rootRelative: 'b.ts',
    });
    expect(resolveInProject(project.root, 'to-extra.ts')).toMatchObject({ ok: false });
  });

  it('keeps ~ refused unless an added root holds it', () => {
    expect(resolveInProject(project.root, '~/x', [extra])).toMatchObject({ ok: false });
    expect(resolveInProject(project.root, '~/x')).toMatchObject({ ok: false });
  });
});

describe('WorkspaceRoots', () => {
  it('adds an existing directory once and refuses a missing one or a file in one line', () => {
    const roots = new WorkspaceRoots(project.root);
    expect(roots.add(extra)).toEqual({ ok: true, real: extra });
    expect(roots.add(join(extra, '.'))).toMatchObject({ ok: true, already: true });
    expect(roots.add(project.path('src'))).toMatchObject({ ok: true, already: true });
    expect(roots.add(join(base, 'missing'))).toEqual({ ok: false, message: `${join(base, 'missing')} does not exist` });
    expect(roots.add(join(extra, 'b.ts'))).toEqual({ ok: false, message: `${join(extra, 'b.ts')} is not a directory` });
    expect(roots.list()).toEqual([extra]);
  });
});
