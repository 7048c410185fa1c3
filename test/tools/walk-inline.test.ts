/**
 * Glob on the main thread (src/tools/walking/walk-inline.ts, walk-simple.ts): which patterns may run there, and that a
 * job run there lists exactly what the same job lists in a worker thread through fast-glob (.gitignore with nested
 * rules and prune hints, dotfiles, node_modules, `.git` files, symlinks in and out of the project, nested
 * directories), so the choice of thread and walker never changes what the model is told.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSimpleGlob, runInline, runsInline } from '../../src/tools/walking/walk-inline.js';
import type { WalkJob } from '../../src/tools/walking/walk-job.js';
import { runInWorker, type WalkOutcome } from '../../src/tools/walking/walk-runner.js';
import { makeProject, type TestProject } from './helpers.js';

let project: TestProject;
let outside: string;

beforeAll(async () => {
  project = await makeProject({
    'src/a.ts': 'a\n',
    'src/b.tsx': 'b\n',
    'src/deep/c.ts': 'c\n',
    'src/deep/er/d.test.ts': 'd\n',
    'src/.hidden/e.ts': 'e\n',
    '.eslintrc.json': '{}\n',
    'dist/out.ts': 'ignored\n',
    'logs/x.log': 'ignored by a nested rule\n',
    'logs/.gitignore': '*.log\n',
    'node_modules/pkg/index.ts': 'dependency\n',
    'README.md': '# r\n',
    'src/dist/kept.ts': 'a nested rule re-includes it, the root hint still prunes it\n',
    'src/.gitignore': '!dist\n',
    'lib/dist': 'a file named like a hint\n',
    'lib/node_modules': 'a file named node_modules\n',
    'lib/.git': 'gitdir: elsewhere\n',
    'lib/weird name [1].ts': 'brackets in a name\n',
    'src/.ts': 'a name that is only an extension\n',
    'docs/guide.md': 'g\n',
    '.gitignore': 'dist/\n',
  });
  outside = join(project.root, '..', `${project.root.split('/').pop()}-outside`);
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'leak.ts'), 'outside\n');
  symlinkSync(outside, join(project.root, 'src', 'linked'));
  symlinkSync(join(outside, 'leak.ts'), join(project.root, 'src', 'leak.ts'));
  symlinkSync(join(project.root, 'src', 'a.ts'), join(project.root, 'src', 'alias.ts'));
  symlinkSync(join(project.root, 'src', 'deep'), join(project.root, 'docs', 'deep-link'));
});
afterAll(async () => {
  await project.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

const globJob = (pattern: string, baseRel = '.'): WalkJob => ({
  kind: 'glob',
  walk: {
    projectRoot: project.root,
    baseRel,
    patterns: [pattern],
    dot: true,
    ignore: pattern.includes('node_modules') ? [] : ['**/node_modules/**'],
  },
});

function files(outcome: WalkOutcome): string[] {
  if (outcome.kind !== 'done' || outcome.result.kind !== 'glob') throw new Error(JSON.stringify(outcome));
  return outcome.result.files.map((file) => file.relative).sort();
}

describe('which Glob patterns run on the main thread', () => {
  it.each([
    '**/*.ts',
    'src/**/*.{ts,tsx}',
    '**/package.json',
    '*.md',
    'src/*/index.ts',
    'src/*.test.?s',
    'docs/guide.md',
    '**/*',
    '*',
    'a b/*.txt',
    'src/{a,b}/{c,d}*.ts',
  ])('%s: simple', (pattern) => {
    expect(isSimpleGlob(pattern)).toBe(true);
  });

  it.each([
    [`src/${'*a'.repeat(14)}b`, 'many stars in a segment'],
    ['**/*test*', 'three unbounded wildcards'],
    ['**/test/**/*.ts', 'two globstars and a star'],
    ['src/**x/*.ts', 'a globstar inside a segment'],
    ['**/*.+(ts|js)', 'an extglob'],
    ['@(a|b)/*', 'an extglob'],
    ['src/[abc]*.ts', 'a character class'],
    ['src/\\*.ts', 'an escape'],
    ['src/*.{ts,{js,mjs}}', 'nested braces'],
    ['file{1..9}.txt', 'a range'],
    ['src/{,x}.ts', 'an empty alternative'],
    ['!src/*.ts', 'a negation'],
    ['src//*.ts', 'an empty segment'],
    ['./src/*.ts', 'a "." segment'],
    [`${'a/'.repeat(40)}*.ts`, 'too many segments'],
    [`*.{${Array.from({ length: 40 }, (_, index) => `e${index}`).join(',')}}`, 'too many alternatives'],
  ])('%s: not simple (%s)', (pattern) => {
    expect(isSimpleGlob(pattern)).toBe(false);
  });

  it('a job with deny/ask path rules goes to a worker whatever its pattern', () => {
    const job = globJob('**/*.ts');
    expect(runsInline(job)).toBe(true);
    if (job.kind !== 'glob') throw new Error('glob');
    expect(runsInline({ ...job, walk: { ...job.walk, screen: { projectRoot: project.root, rules: [] } } })).toBe(false);
    expect(runsInline({ kind: 'grep', search: {} as never })).toBe(false);
  });
});

describe('a Glob on the main thread lists what a worker lists', () => {
  const never = new AbortController().signal;
  for (const [pattern, base] of [
    ['**/*.ts', '.'],
    ['**/*', '.'],
    ['src/**/*.{ts,tsx}', '.'],
    ['*.ts', 'src'],
    ['**/*.log', '.'],
    ['node_modules/**/*.ts', '.'],
    ['*', '.'],
    ['**/.*', '.'],
    ['**/*.md', 'docs'],
    ['**/*.ts', 'dist'],
    ['**/dist', '.'],
    ['lib/*', '.'],
    ['**/node_modules', '.'],
    ['**', 'lib'],
    ['src/**', '.'],
    ['**/*.{ts,md}', '.'],
    ['*/*.ts', '.'],
    ['**/?.ts', '.'],
    ['**/*.ts', 'docs'],
    ['missing/**/*.ts', '.'],
  ] as const) {
    it(`${pattern} in ${base}`, async () => {
      const job = globJob(pattern, base);
      expect(runsInline(job)).toBe(true);
      const inline = files(await runInline(job, never, 30_000));
      const worker = files(await runInWorker(job, never, 30_000));
      expect(inline).toEqual(worker);
      expect(inline.some((file) => file.includes('leak') || file.includes('linked'))).toBe(false);
    });
  }

  it('the walk is found at all (the comparison above cannot pass on two empty lists)', async () => {
    expect(files(await runInline(globJob('**/*.ts'), never, 30_000))).toEqual([
      'lib/weird name [1].ts',
      'src/.hidden/e.ts',
      'src/.ts',
      'src/a.ts',
      'src/deep/c.ts',
      'src/deep/er/d.test.ts',
    ]);
  });

  it('an abort before the walk ends gives interrupted, as a worker does', async () => {
    const controller = new AbortController();
    const pending = runInline(globJob('**/*'), controller.signal, 30_000);
    controller.abort();
    expect(await pending).toEqual({ kind: 'interrupted' });
  });
});
