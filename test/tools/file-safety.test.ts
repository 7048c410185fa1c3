/**
 * The file tools against a hostile or awkward file system: read-only files, kept modes, mca's own temp files,
 * control files, huge overwrites (bounded diff) and secrets in any tool output.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DIFF_MAX_LINES, unifiedDiff } from '../../src/tools/editing/edit-core.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { removeStaleTemps } from '../../src/fs/temp-files.js';
import { sweepTempJournals } from '../../src/fs/temp-journal.js';
import { makeContext, makeProject, type TestProject, runTool } from './helpers.js';

let project: TestProject;
afterEach(async () => project.cleanup());
const registry = createDefaultRegistry();

describe('read-only files and modes', () => {
  for (const tool of ['Write', 'Edit', 'MultiEdit'] as const) {
    it(`${tool} of a 0444 file fails with ACCESS_DENIED and leaves it untouched`, async () => {
      project = await makeProject({ 'ro.txt': 'keep me\n' });
      await chmod(project.path('ro.txt'), 0o444);
      const ctx = makeContext(project.root);
      await runTool(registry, 'Read', { path: 'ro.txt' }, ctx);
      const input = {
        Write: { path: 'ro.txt', content: 'replaced\n' },
        Edit: { path: 'ro.txt', old_string: 'keep', new_string: 'lose' },
        MultiEdit: { path: 'ro.txt', edits: [{ old_string: 'keep', new_string: 'lose' }] },
      }[tool];
      const result = await runTool(registry, tool, input, ctx);
      expect(result.error?.code).toBe('ACCESS_DENIED');
      expect(result.error?.message).toMatch(/read-only \(mode 0444\)/);
      expect(await project.read('ro.txt')).toBe('keep me\n');
      expect(ctx.requests).toEqual([]);
    });
  }

  it('an overwritten file keeps its mode (0750 stays 0750)', async () => {
    project = await makeProject({ 'run.sh': 'echo a\n' });
    await chmod(project.path('run.sh'), 0o750);
    const ctx = makeContext(project.root);
    await runTool(registry, 'Read', { path: 'run.sh' }, ctx);
    const result = await runTool(registry, 'Edit', { path: 'run.sh', old_string: 'echo a', new_string: 'echo b' }, ctx);
    expect(result.status).toBe('success');
    expect((await stat(project.path('run.sh'))).mode & 0o777).toBe(0o750);
    expect(await project.read('run.sh')).toBe('echo b\n');
  });
});

describe('control files', () => {
  for (const path of ['.mca/config.json', '.mca/settings.json', '.claude/settings.local.json', '.MCA/x.json']) {
    it(`marks a write of ${path} as a control-file change`, async () => {
      project = await makeProject();
      const ctx = makeContext(project.root);
      await runTool(registry, 'Write', { path, content: '{}' }, ctx);
      expect(ctx.requests.map((request) => request.controlFile)).toEqual([true]);
    });
  }

  it('sees through a symlinked directory into .mca', async () => {
    project = await makeProject({ '.mca/config.json': '{}' });
    const { symlink } = await import('node:fs/promises');
    await symlink(project.path('.mca'), project.path('innocent'));
    const ctx = makeContext(project.root);
    await runTool(registry, 'Write', { path: 'innocent/new.json', content: '{}' }, ctx);
    expect(ctx.requests.map((request) => request.controlFile)).toEqual([true]);
  });

  it('does not flag ordinary files', async () => {
    project = await makeProject();
    const ctx = makeContext(project.root);
    await runTool(registry, 'Write', { path: 'src/mca/config.json', content: '{}' }, ctx);
    expect(ctx.requests.map((request) => request.controlFile)).toEqual([false]);
  });
});

describe('bounded diff', () => {
  it('summarises a rewrite too large to diff instead of computing it', async () => {
    const before = Array.from({ length: 60_000 }, (_, i) => `old line ${i}`).join('\n');
    const after = Array.from({ length: 60_000 }, (_, i) => `new line ${i}`).join('\n');
    const diff = await unifiedDiff('big.txt', before, after);
    expect(diff.split('\n')).toHaveLength(3);
    expect(diff).toMatch(
      /\[diff not shown: the change is too large to diff; 60,000 lines, [\d,]+ bytes → 60,000 lines/,
    );
  });

  it('caps the lines of a diff it does compute', async () => {
    const before = Array.from({ length: 5_000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 5_000 }, (_, i) => `b${i}`).join('\n');
    const lines = (await unifiedDiff('mid.txt', before, after)).split('\n');
    expect(lines.length).toBeLessThanOrEqual(DIFF_MAX_LINES + 3);
    expect(lines.at(-1)).toMatch(/more diff lines not shown|diff not shown/);
  });

  it('Write over a 5 MB file asks with a summary, not a diff, and writes it', async () => {
    project = await makeProject({ 'big.txt': 'x'.repeat(5 * 1024 * 1024) });
    const ctx = makeContext(project.root);
    await runTool(registry, 'Read', { path: 'big.txt', limit: 1 }, ctx);
    const result = await runTool(registry, 'Write', { path: 'big.txt', content: 'small\n' }, ctx);
    expect(result.status).toBe('success');
    expect(ctx.requests[0]?.detail).toMatch(
      /diff not shown: the change is too large to diff; the current file → 1 lines/,
    );
    expect(await project.read('big.txt')).toBe('small\n');
  });
});

describe('secrets in tool output', () => {
  it('replaces the exact key values in every tool result, whatever tool produced them', async () => {
    const key = 'sk-live-abcdefghijklmnop1234';
    project = await makeProject({ 'leak.txt': `token=${key}\n` });
    const secretRegistry = createDefaultRegistry({ secrets: [key] });
    const ctx = makeContext(project.root);
    const read = await runTool(secretRegistry, 'Read', { path: 'leak.txt' }, ctx);
    const grep = await runTool(secretRegistry, 'Grep', { pattern: 'token' }, ctx);
    for (const result of [read, grep]) {
      expect(JSON.stringify(result)).not.toContain(key);
      expect(JSON.stringify(result)).toContain('[REDACTED]');
    }
  });
});

describe('leftover temp files', () => {
  it('removes temps of dead writers and keeps those of live ones', async () => {
    project = await makeProject();
    const dead = project.path('.a.txt.mca-999999-0a1b2c.tmp');
    const live = project.path(`.a.txt.mca-${process.pid}-0a1b2c.tmp`);
    const other = project.path('.a.txt.other.tmp');
    for (const file of [dead, live, other]) await writeFile(file, 'x');
    expect(await removeStaleTemps(project.root)).toBe(1);
    expect((await readdir(project.root)).sort()).toEqual([`.a.txt.mca-${process.pid}-0a1b2c.tmp`, '.a.txt.other.tmp']);
  });

  it('the start-up sweep removes the temps a dead writer journalled, and only those', async () => {
    const pid = 4194303; // above any default pid_max in use: surely dead
    const temp = (name: string) => `.${name}.mca-${pid}-0a1b2c.tmp`;
    project = await makeProject({
      [`src/deep/er/${temp('notes.md')}`]: 'x',
      [`.config/${temp('settings.json')}`]: 'x',
      [`unlisted/${temp('stays.txt')}`]: 'x',
      'victim.txt': 'must stay',
      [`.other.txt.mca-999999-0a1b2c.tmp`]: 'another writer',
    });
    await mkdir(project.path(temp('a-directory')));
    const outside = await mkdtemp(join(tmpdir(), 'mca-sweep-outside-'));
    const journals = await mkdtemp(join(tmpdir(), 'mca-journals-'));
    try {
      await writeFile(join(outside, temp('elsewhere.txt')), 'x');
      await symlink(join(outside, temp('elsewhere.txt')), project.path(temp('link.txt')));
      const listed = [
        project.path(`src/deep/er/${temp('notes.md')}`),
        project.path(`.config/${temp('settings.json')}`),
        project.path('victim.txt'), // not a temp name
        project.path('.other.txt.mca-999999-0a1b2c.tmp'), // another pid's temp
        project.path(temp('a-directory')), // a directory
        project.path(temp('link.txt')), // a symlink: removed is the link at most, never its target
        `relative/${temp('x.txt')}`,
        '',
      ];
      await writeFile(join(journals, `${pid}-00ff.txt`), listed.join('\n'));
      await writeFile(join(journals, `${process.pid}-00ff.txt`), `${project.path('victim.txt')}\n`);
      await writeFile(join(journals, 'notes.txt'), `${project.path(`unlisted/${temp('stays.txt')}`)}\n`);

      expect(await sweepTempJournals(journals)).toBe(2);
      expect(await readdir(outside)).toEqual([temp('elsewhere.txt')]);
      // The dead writer's journal is gone; a live writer's (this process) and a file not named like one stay.
      expect((await readdir(journals)).sort()).toEqual([`${process.pid}-00ff.txt`, 'notes.txt'].sort());
    } finally {
      await rm(outside, { recursive: true, force: true });
      await rm(journals, { recursive: true, force: true });
    }
    const left = (await readdir(project.root, { recursive: true })).filter((name) => name.includes('.mca-')).sort();
    expect(left).toEqual(
      [
        temp('a-directory'),
        temp('link.txt'),
        '.other.txt.mca-999999-0a1b2c.tmp',
        'unlisted',
        `unlisted/${temp('stays.txt')}`,
      ]
        .filter((name) => name.includes('.mca-'))
        .sort(),
    );
    expect(await readFile(project.path('victim.txt'), 'utf8')).toBe('must stay');
  });
});
