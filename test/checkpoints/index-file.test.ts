/**
 * git's index read directly (index-file.ts) for the first scan of a session: versions 2, 3 and 4 (path prefix
 * compression) give the same entries as git's own listing, entries git flags (intent-to-add, skip-worktree,
 * assume-unchanged) are never vouched for, and a split index (a format the reader leaves to git) still has the first
 * scan refer to tracked files through `git ls-files --debug`. Driven with real repositories in temp directories.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIndexFile } from '../../src/checkpoints/index-file.js';
import { readIndexView } from '../../src/checkpoints/index-stat.js';
import { limitsFromEnv } from '../../src/checkpoints/limits.js';
import { ProjectCheckpoints } from '../../src/checkpoints/project-checkpoints.js';
import { WatchedTree } from '../../src/checkpoints/watched-scan.js';
import { SessionStore } from '../../src/store/session-store.js';
import { bashTool } from '../../src/tools/processes/bash.js';
import type { ToolDefinition } from '../../src/tools/registry/define-tool.js';
import { commitAll, git, tempRepo } from './support/git-repos.js';

const TREE: Record<string, string> = {
  '.gitignore': '*.log\n',
  'src/a.txt': 'a one\n',
  'src/aa.txt': 'a two\n',
  'src/deep/er/b.txt': 'b one\n',
  'src/deep/er/c.txt': 'c one\n',
  'lib/d.sh': '#!/bin/sh\necho d\n',
  'top.txt': 'top\n',
};

/** A committed repository whose files' mtimes are 10 s old (so the index may vouch for them). */
function repository(): { base: string; root: string } {
  const { base, root } = tempRepo('mca-index-file-', TREE);
  commitAll(root, { agedSeconds: 10 });
  return { base, root };
}

/** What git itself lists for `cwd`: path → "blob mtime size" of stage-0 entries with no flags. */
function gitsEntries(cwd: string): Map<string, string> {
  const out = execFileSync('git', ['ls-files', '-z', '--stage', '--debug'], { cwd, encoding: 'utf8' });
  const entries = new Map<string, string>();
  const re =
    /([0-7]{6}) ([0-9a-f]+) 0\t([^\0]*)\0 {2}ctime: \d+:\d+\n {2}mtime: (\d+):(\d+)\n[^\n]*\n[^\n]*\n {2}size: (\d+)\tflags: ([0-9a-f]+)\n/g;
  for (const m of out.matchAll(re)) if (m[7] === '0') entries.set(m[3] ?? '', `${m[2]} ${m[4]}:${m[5]} ${m[6]}`);
  return entries;
}

function ours(root: string, prefix: string): Map<string, string> | undefined {
  const read = readIndexFile(join(root, '.git', 'index'), prefix, 20);
  if (!read) return undefined;
  return new Map([...read.entries].map(([path, e]) => [path, `${e.blob} ${e.mtimeS}:${e.mtimeNs} ${e.size}`] as const));
}

describe("git's index read directly", () => {
  for (const version of ['2', '3', '4']) {
    it(`reads a version ${version} index as git lists it, at the top and from a subdirectory`, () => {
      const { root } = repository();
      // Flags that keep an entry from being vouched for: intent-to-add (extended), skip-worktree, assume-unchanged.
      writeFileSync(join(root, 'src', 'new.txt'), 'new\n');
      git(root, 'add', '-N', 'src/new.txt');
      git(root, 'update-index', '--skip-worktree', 'lib/d.sh');
      git(root, 'update-index', '--assume-unchanged', 'top.txt');
      git(root, 'update-index', '--index-version', version);
      const top = ours(root, '');
      expect(top).toEqual(gitsEntries(root));
      expect([...(top?.keys() ?? [])].sort()).toEqual([
        '.gitignore',
        'src/a.txt',
        'src/aa.txt',
        'src/deep/er/b.txt',
        'src/deep/er/c.txt',
      ]);
      expect(ours(root, 'src/')).toEqual(gitsEntries(join(root, 'src')));
    });
  }

  it('leaves a split index to git, whose listing the index view then uses', async () => {
    const { root } = repository();
    git(root, 'update-index', '--split-index');
    expect(existsSync(join(root, '.git', 'index'))).toBe(true);
    expect(readIndexFile(join(root, '.git', 'index'), '', 20)).toBeUndefined();
    const view = await readIndexView(root, 10_000, new AbortController().signal);
    expect(new Map([...(view?.entries ?? [])].map(([path, e]) => [path, e.blob]))).toEqual(
      new Map([...gitsEntries(root)].map(([path, text]) => [path, text.split(' ')[0]])),
    );
    expect(view?.entries.size).toBe(Object.keys(TREE).length);
  });

  it('refuses an index whose checksum does not match (git is asked instead)', () => {
    const { root } = repository();
    const index = join(root, '.git', 'index');
    const bytes = readFileSync(index);
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    writeFileSync(index, bytes);
    expect(readIndexFile(index, '', 20)).toBeUndefined();
  });
});

describe('the first scan of a session with the index read directly', () => {
  for (const [name, setup] of [
    ['an index of version 4', (root: string) => git(root, 'update-index', '--index-version', '4')],
    ['a split index', (root: string) => git(root, 'update-index', '--split-index')],
  ] as const) {
    it(`with ${name}: refers to the tracked files, copying none, and restores a command's changes exactly`, async () => {
      const { base, root } = repository();
      setup(root);
      const store = new SessionStore(join(base, 'home'), root);
      const writer = await store.create('m');
      const checkpoints = new ProjectCheckpoints(store, store.projectRoot, limitsFromEnv({}));
      writer.appendMessage({ role: 'user', content: 'change', metadata: { round: 1, ts: new Date().toISOString() } });
      const paths = [...Object.keys(TREE), 'made.txt'];
      const snapshot = (): Record<string, string> =>
        Object.fromEntries(
          paths.map((path) => {
            const file = join(root, path);
            return [path, existsSync(file) ? `${statSync(file).mode & 0o7777}:${readFileSync(file, 'hex')}` : '-'];
          }),
        );
      const before = snapshot();
      const after = await checkpoints.beforeRun(
        writer.sessionId,
        { id: 'toolu_index', name: 'Bash', input: { command: 'x' }, source: 'model' },
        bashTool as ToolDefinition,
        new AbortController().signal,
      );
      const blobs = (await checkpoints.session(writer.sessionId)).blobs;
      for (const text of Object.values(TREE)) {
        expect(await blobs.has(createHash('sha256').update(text).digest('hex'))).toBe(false);
      }
      execFileSync(
        '/bin/bash',
        ['-c', 'echo changed > src/a.txt && rm src/deep/er/c.txt && chmod +x top.txt && echo x > made.txt'],
        { cwd: root },
      );
      await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
      const [checkpoint] = await checkpoints.listCheckpoints(writer.sessionId);
      await checkpoints.rewind(writer.sessionId, checkpoint?.id ?? '', { code: true, conversation: false });
      expect(snapshot()).toEqual(before);
    });
  }
});

describe('the watch start and the listing that ran before it', () => {
  it('names the files the watch start found that the listing lacks and git does not ignore', async () => {
    const { base, root } = repository();
    const tree = new WatchedTree(root, base);
    const missed = await tree.unlisted(
      ['src/a.txt'],
      ['src/a.txt', 'src/made-meanwhile.txt', 'build.log'],
      new AbortController().signal,
    );
    expect(missed).toEqual(['src/made-meanwhile.txt']);
  });
});
