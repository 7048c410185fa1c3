/**
 * Added working directories (`--add-dir`, settings `permissions.additionalDirectories`) through the built binary
 * in -p: the file tools read and change files in an added directory with the project's confinement rules (a
 * symlink out of it is refused, its `.git` stays protected), paths outside every root stay refused, the system
 * prompt names the directory, a wrong `--add-dir` is one line, and a project's shared settings file (a cloned
 * repository's) cannot add a directory while the user's own settings can.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, systemText, userText } from '../helpers/fake-anthropic-server.js';
import type { FakeAnthropic, FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject, type TempProject } from '../helpers/temp-project.js';
import { act, finish } from './support/agent-script.js';

const KEY = 'sk-ant-test-add-dir-0123456789';
let api: FakeAnthropic | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A project, an added directory beside it (with a .git and a link out), and a secret outside both. */
function layout(): TempProject & { extra: string; outside: string } {
  const project = tempProject('mca-add-dir-', { 'main.txt': 'main\n' });
  const base = join(project.root, '..');
  const extra = join(base, 'extra');
  const outside = join(base, 'outside');
  mkdirSync(join(extra, '.git'), { recursive: true });
  mkdirSync(join(extra, 'src'));
  mkdirSync(outside);
  writeFileSync(join(extra, 'notes.txt'), 'alpha\n');
  writeFileSync(join(extra, 'src', 'lib.ts'), 'export const x = 1;\n');
  writeFileSync(join(extra, '.git', 'config'), '[core]\n');
  writeFileSync(join(outside, 'secret.txt'), 'SECRET-OUTSIDE\n');
  symlinkSync(join(outside, 'secret.txt'), join(extra, 'link.txt'));
  return { ...project, extra, outside };
}

async function run(project: TempProject, script: FakeStep[], args: string[], env: Record<string, string> = {}) {
  api = await startFakeAnthropic(script);
  return runMca(['-p', 'go', '--output-format', 'json', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
      MCA_HOME: project.home,
      HOME: project.home,
      MCA_TOOL_PROTOCOL: 'text',
      ...env,
    },
    timeoutMs: 60_000,
  });
}

/** What the model was told after step `index`. */
function observationAfter(index: number): string {
  const body = api?.requests[index + 1]?.body;
  if (!body) throw new Error(`no request after step ${index}`);
  const text = userText(body);
  return text.slice(text.lastIndexOf('Observation:'));
}

describe('--add-dir in -p', () => {
  it('reads, edits and globs in the added directory; outside, a link out and its .git stay refused', async () => {
    const dirs = layout();
    const result = await run(
      dirs,
      [
        act('read', 'Read', { path: join(dirs.extra, 'notes.txt') }),
        act('edit', 'Edit', { path: join(dirs.extra, 'notes.txt'), old_string: 'alpha', new_string: 'beta' }),
        act('glob', 'Glob', { pattern: '**/*.ts', path: dirs.extra }),
        act('outside', 'Read', { path: join(dirs.outside, 'secret.txt') }),
        act('link', 'Read', { path: join(dirs.extra, 'link.txt') }),
        act('git', 'Write', { path: join(dirs.extra, '.git', 'post-commit'), content: 'touch pwned\n' }),
        finish('done', 'done'),
      ],
      ['--add-dir', dirs.extra, '--permission-mode', 'acceptEdits'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(systemText(api!.requests[0]!.body)).toContain(`Additional working directories`);
    expect(systemText(api!.requests[0]!.body)).toContain(dirs.extra);
    expect(observationAfter(0)).toContain('alpha');
    expect(readFileSync(join(dirs.extra, 'notes.txt'), 'utf8')).toBe('beta\n');
    expect(observationAfter(1)).toContain(`+++ ${join(dirs.extra, 'notes.txt')}\n`);
    expect(observationAfter(2)).toContain(join(dirs.extra, 'src', 'lib.ts'));
    expect(observationAfter(3)).toMatch(/ACCESS_DENIED.*outside the project root.*or the added directories/);
    expect(observationAfter(4)).toMatch(/ACCESS_DENIED.*resolves through a symlink/);
    expect(observationAfter(4)).not.toContain('SECRET-OUTSIDE');
    // A write into the added directory's .git is a control file: asked even in acceptEdits, denied in -p.
    expect(observationAfter(5)).toMatch(/denied|PERMISSION/i);
    expect(existsSync(join(dirs.extra, '.git', 'post-commit'))).toBe(false);
  });

  it('expands ~ in --add-dir to the home directory', async () => {
    const dirs = layout();
    const result = await run(
      dirs,
      [act('read', 'Read', { path: join(dirs.extra, 'notes.txt') }), finish('done', 'done')],
      ['--add-dir', '~/extra'],
      { HOME: join(dirs.root, '..') },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(observationAfter(0)).toContain('alpha');
  });

  it('without --add-dir the same directory is outside the project', async () => {
    const dirs = layout();
    const result = await run(
      dirs,
      [act('read', 'Read', { path: join(dirs.extra, 'notes.txt') }), finish('done', 'done')],
      [],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(observationAfter(0)).toMatch(/ACCESS_DENIED.*outside the project root/);
    expect(observationAfter(0)).not.toContain('alpha');
  });

  it('a directory that does not exist or is a file is one line and exit 1', async () => {
    const dirs = layout();
    api = await startFakeAnthropic([finish('never', 'never')]);
    for (const wrong of [join(dirs.extra, 'missing'), join(dirs.extra, 'notes.txt')]) {
      const result = await runMca(['-p', 'go', '--add-dir', wrong], {
        cwd: dirs.root,
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url, MCA_HOME: dirs.home, HOME: dirs.home },
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/--add-dir .*(does not exist|is not a directory)/);
    }
    expect(api.requests).toHaveLength(0);
  });

  it("a project's settings.json cannot add a directory; the user's settings can", async () => {
    const dirs = layout();
    const settings = JSON.stringify({ permissions: { additionalDirectories: [dirs.extra] } });
    mkdirSync(join(dirs.root, '.claude'));
    writeFileSync(join(dirs.root, '.claude', 'settings.json'), settings);
    const script = [act('read', 'Read', { path: join(dirs.extra, 'notes.txt') }), finish('done', 'done')];
    const refused = await run(dirs, script, []);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toContain('ignored permissions.additionalDirectories in');
    expect(observationAfter(0)).toMatch(/ACCESS_DENIED.*outside the project root/);
    await api?.close();

    mkdirSync(join(dirs.home, '.claude'), { recursive: true });
    writeFileSync(join(dirs.home, '.claude', 'settings.json'), settings);
    writeFileSync(join(dirs.root, '.claude', 'settings.json'), '{}');
    const allowed = await run(dirs, script, []);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(observationAfter(0)).toContain('alpha');
  });
});
