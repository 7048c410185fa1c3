/**
 * The Bash snapshot from change events (watched-scan.ts, tree-watch.ts) and the first scan's shortcuts
 * (index-stat.ts: git's index vouches for a tracked file; blob-packs.ts: a scan's copies in one pack file), driven
 * through ProjectCheckpoints and rewind() with a real session file and real repositories in temp directories: what
 * a command did (a change in a directory nothing else changed, a rename, a delete, a directory replaced, new
 * directories, ignored files) is restored exactly; a file the user changed between two calls is not taken for the
 * command's change; a racy file (same stat, other bytes) is read again; CRLF checkouts and autocrlf are never
 * vouched for by the index; an uncommitted tree is stored in a pack and restored from it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/checkpoints/blob-store.js';
import { limitsFromEnv } from '../../src/checkpoints/limits.js';
import { ProjectCheckpoints } from '../../src/checkpoints/project-checkpoints.js';
import { scanProject, type Image } from '../../src/checkpoints/project-scan.js';
import { statKey } from '../../src/checkpoints/file-capture.js';
import { WatchedTree } from '../../src/checkpoints/watched-scan.js';
import { SessionStore } from '../../src/store/session-store.js';
import { bashTool } from '../../src/tools/processes/bash.js';
import type { ToolDefinition } from '../../src/tools/registry/define-tool.js';
import { commitAll, git, tempRepo } from './support/git-repos.js';

const temp = (files: Record<string, string> = {}) => tempRepo('mca-checkpoints-watch-', files);
const commitAged = (root: string): void => commitAll(root, { agedSeconds: 10 });

/** Bytes (hex) and mode of each path, or "absent". */
function state(root: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of paths) {
    const file = join(root, path);
    out[path] = existsSync(file)
      ? `${(statSync(file).mode & 0o7777).toString(8)}:${readFileSync(file, 'hex')}`
      : 'absent';
  }
  return out;
}

async function session(root: string, home: string) {
  const store = new SessionStore(home, root);
  const writer = await store.create('m');
  const checkpoints = new ProjectCheckpoints(store, store.projectRoot, limitsFromEnv({}));
  let round = 0;
  const prompt = async (text: string): Promise<void> => {
    round += 1;
    writer.appendMessage({ role: 'user', content: text, metadata: { round, ts: new Date().toISOString() } });
    await new Promise((resolve) => setTimeout(resolve, 3));
  };
  const bash = async (command: string): Promise<void> => {
    const after = await checkpoints.beforeRun(
      writer.sessionId,
      { id: `toolu_${round}_${command.length}`, name: 'Bash', input: { command }, source: 'model' },
      bashTool as ToolDefinition,
      new AbortController().signal,
    );
    execFileSync('/bin/bash', ['-c', command], { cwd: root });
    await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
    await new Promise((resolve) => setTimeout(resolve, 3));
  };
  const list = () => checkpoints.listCheckpoints(writer.sessionId);
  const rewindTo = async (index: number) => {
    const checkpoint = (await list())[index];
    return await checkpoints.rewind(writer.sessionId, checkpoint?.id ?? '', { code: true, conversation: false });
  };
  return { checkpoints, id: writer.sessionId, prompt, bash, list, rewindTo };
}

const TREE = {
  '.gitignore': 'node_modules/\n*.log\n',
  'src/a.txt': 'a one\n',
  'src/b.txt': 'b one\n',
  'lib/deep/c.txt': 'c one\n',
  'lib/d.sh': '#!/bin/sh\necho d\n',
  'node_modules/pkg/index.js': 'module.exports = 1;\n',
};
const PATHS = [
  'src/a.txt',
  'src/b.txt',
  'src/moved.txt',
  'lib/deep/c.txt',
  'lib/d.sh',
  'new/deep/f.txt',
  'node_modules/pkg/index.js',
  'out.log',
];

describe('the Bash snapshot from change events', () => {
  it("a file the user changed between two calls, in a directory nothing else changed, is the user's after a rewind", async () => {
    const { root, home } = temp(TREE);
    commitAged(root);
    const s = await session(root, home);
    await s.prompt('first');
    await s.bash('echo other > other.txt');
    writeFileSync(join(root, 'src/a.txt'), 'the user wrote this\n'); // src/ keeps its entries: its mtime stays
    await s.prompt('second');
    await s.bash('echo by the command > src/a.txt');
    const second = (await s.list())[1];
    expect(second?.files).toEqual(['src/a.txt']);
    const result = await s.rewindTo(1);
    expect(result.applied?.restored).toEqual(['src/a.txt']);
    expect(readFileSync(join(root, 'src/a.txt'), 'utf8')).toBe('the user wrote this\n');
  });

  it('restores a rename, a delete, a replaced directory and new directories; leaves ignored files alone', async () => {
    const { root, home } = temp(TREE);
    commitAged(root);
    const s = await session(root, home);
    await s.prompt('warm up');
    await s.bash('true');
    const before = state(root, PATHS);
    await s.prompt('change the tree');
    await s.bash(
      'mv src/a.txt src/moved.txt && rm -rf lib && mkdir lib && printf new > lib/d.sh && ' +
        'mkdir -p new/deep && echo f > new/deep/f.txt && echo ignored > node_modules/pkg/index.js && echo log > out.log',
    );
    expect((await s.list())[1]?.files.sort()).toEqual(
      ['lib/d.sh', 'lib/deep/c.txt', 'new/deep/f.txt', 'src/a.txt', 'src/moved.txt'].sort(),
    );
    await s.rewindTo(1);
    expect(state(root, PATHS)).toEqual({
      ...before,
      'node_modules/pkg/index.js': state(root, ['node_modules/pkg/index.js'])['node_modules/pkg/index.js'],
      'out.log': state(root, ['out.log'])['out.log'],
    });
    expect(readFileSync(join(root, 'node_modules/pkg/index.js'), 'utf8')).toBe('ignored\n');
    // After the rewind (its own writes are events too), the next command's change is still restored exactly.
    const restored = state(root, PATHS);
    await s.prompt('again');
    await s.bash('echo again >> lib/deep/c.txt && rm src/b.txt');
    await s.rewindTo(3);
    expect(state(root, PATHS)).toEqual(restored);
  });

  it('covers a file git starts tracking between two calls (an ignored file force-added), and forgets one it drops', async () => {
    const { root, home } = temp({ ...TREE, 'tracked.log': 'tracked log\n' });
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'add', '-f', 'tracked.log');
    git(root, '-c', 'user.email=t@e.st', '-c', 'user.name=t', 'commit', '-qm', 'base');
    const s = await session(root, home);
    await s.prompt('first');
    await s.bash('true');
    writeFileSync(join(root, 'keep.log'), 'kept\n');
    await s.prompt('between');
    await s.bash('true'); // keep.log is ignored: not covered yet
    git(root, 'add', '-f', 'keep.log'); // only git's index changes
    git(root, 'rm', '-q', '--cached', 'tracked.log'); // ignored and no longer tracked: not covered any more
    await s.prompt('change');
    await s.bash('echo changed > keep.log && echo changed > tracked.log');
    expect((await s.list())[2]?.files).toEqual(['keep.log']);
    await s.rewindTo(2);
    expect(readFileSync(join(root, 'keep.log'), 'utf8')).toBe('kept\n');
    expect(readFileSync(join(root, 'tracked.log'), 'utf8')).toBe('changed\n');
  });

  it('never reads through a directory a command swapped for a symlink out of the project', async () => {
    const { root, home, base } = temp(TREE);
    commitAged(root);
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'd.sh'), 'outside secret\n');
    const s = await session(root, home);
    await s.prompt('first');
    await s.bash('true');
    const before = state(root, ['lib/d.sh', 'lib/deep/c.txt']);
    await s.prompt('swap');
    await s.bash(`rm -rf lib && ln -s ${join(base, 'outside')} lib && echo more >> lib/d.sh`);
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    expect(await blobs.has(createHash('sha256').update('outside secret\nmore\n').digest('hex'))).toBe(false);
    rmSync(join(root, 'lib'));
    await s.rewindTo(1);
    expect(state(root, ['lib/d.sh', 'lib/deep/c.txt'])).toEqual(before);
    expect(readFileSync(join(base, 'outside', 'd.sh'), 'utf8')).toBe('outside secret\nmore\n');
  });

  it('reads a racy file again: same stat as the scan recorded, other bytes', async () => {
    const { root, base } = temp({ 'racy.txt': 'new bytes\n' });
    git(root, 'init', '-q');
    const blobs = new BlobStore(join(base, 'blobs'));
    const stat = statKey(lstatSync(join(root, 'racy.txt')));
    // The image a scan recorded just before a same-size rewrite in the same timestamp tick: the stat it holds is
    // the file's stat now, the bytes it holds are the old ones.
    const stale = {
      kind: 'file' as const,
      hash: createHash('sha256').update('old bytes\n').digest('hex'),
      mode: 0o644,
      size: 10,
    };
    const previous: Image = { 'racy.txt': { stat, state: stale } };
    const limits = limitsFromEnv({});
    const signal = new AbortController().signal;
    const newHash = createHash('sha256').update('new bytes\n').digest('hex');
    // Recorded long after the file's mtime: the stat is trusted.
    const trusted = await scanProject(root, previous, blobs, limits, signal, { prefix: '' }, stat.mtimeMs + 60_000);
    expect(trusted.ok && trusted.image['racy.txt']?.state).toEqual(stale);
    // Recorded in the file's timestamp window: read again, by the full scan and by the watched one.
    const full = await scanProject(root, previous, blobs, limits, signal, { prefix: '' }, stat.mtimeMs - 1);
    expect(full.ok && full.image['racy.txt']?.state).toMatchObject({ kind: 'file', hash: newHash });
    const tree = new WatchedTree(root, base);
    try {
      await tree.prepare(signal);
      tree.adopt(previous, true);
      if (!tree.watching) {
        process.stdout.write(`watched scan not checked: ${tree.offReason ?? 'not watching'}\n`);
        return;
      }
      tree.mark('racy.txt');
      const watched = await tree.scan(previous, blobs, limits, stat.mtimeMs - 1, signal);
      expect(watched?.image['racy.txt']?.state).toMatchObject({ kind: 'file', hash: newHash });
    } finally {
      tree.close();
    }
  });
});

describe('the first scan of a session', () => {
  it("refers to tracked files git's index vouches for, copying none, and restores them exactly", async () => {
    const { root, home } = temp(TREE);
    commitAged(root);
    const s = await session(root, home);
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    const before = state(root, PATHS);
    await s.prompt('change');
    const after = await s.checkpoints.beforeRun(
      s.id,
      { id: 'toolu_vouch', name: 'Bash', input: { command: 'x' }, source: 'model' },
      bashTool as ToolDefinition,
      new AbortController().signal,
    );
    for (const text of Object.values(TREE)) {
      expect(await blobs.has(createHash('sha256').update(text).digest('hex'))).toBe(false);
    }
    execFileSync('/bin/bash', ['-c', 'echo changed > src/a.txt && rm lib/d.sh'], { cwd: root });
    await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
    await s.rewindTo(0);
    expect(state(root, PATHS)).toEqual(before);
  });

  for (const [name, setup] of [
    [
      'a CRLF checkout by .gitattributes',
      (root: string) => writeFileSync(join(root, '.gitattributes'), '*.txt text eol=crlf\n'),
    ],
    ['a CRLF checkout by core.autocrlf', (root: string) => git(root, 'config', 'core.autocrlf', 'true')],
  ] as const) {
    it(`never lets the index vouch for ${name}: the bytes on disk are restored`, async () => {
      const { root, home } = temp({ 'crlf.txt': 'one\ntwo\n' });
      git(root, 'init', '-q');
      setup(root);
      git(root, 'add', '-A');
      git(root, '-c', 'user.email=t@e.st', '-c', 'user.name=t', 'commit', '-qm', 'base');
      rmSync(join(root, 'crlf.txt'));
      git(root, 'checkout', '--', 'crlf.txt');
      expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
      // Aged, and the index refreshed to that stat: only the conversion rule keeps the index from vouching.
      const then = Date.now() / 1000 - 10;
      utimesSync(join(root, 'crlf.txt'), then, then);
      git(root, 'update-index', '--refresh');
      const before = state(root, ['crlf.txt']);
      const s = await session(root, home);
      await s.prompt('change');
      await s.bash('printf changed > crlf.txt');
      await s.rewindTo(0);
      expect(state(root, ['crlf.txt'])).toEqual(before);
    });
  }

  it('stores an uncommitted tree in one pack file, not a file per copy, and restores it from there', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 60; index += 1) tree[`d${index % 6}/f${index}.txt`] = `file ${index}\n`;
    const { root, home } = temp(tree);
    git(root, 'init', '-q');
    const paths = Object.keys(tree);
    const before = state(root, paths);
    const s = await session(root, home);
    await s.prompt('change everything');
    await s.bash('for f in d*/f*.txt; do echo changed >> "$f"; done && rm -rf d0 && mv d1 d9');
    const store = (await s.checkpoints.session(s.id)).blobs.dir;
    const loose = readdirSync(store).filter((name) => name !== 'packs');
    const packed = readdirSync(join(store, 'packs'));
    expect(packed.filter((name) => name.endsWith('.pack')).length).toBeGreaterThan(0);
    // Loose blobs: only the scan image itself (never one per copied file).
    expect(loose.flatMap((shard) => readdirSync(join(store, shard))).length).toBeLessThanOrEqual(1);
    await s.rewindTo(0);
    expect(state(root, paths)).toEqual(before);
    expect(existsSync(join(root, 'd9/f1.txt'))).toBe(false); // files restored; the emptied directory stays
  });
});
