/**
 * The Bash snapshot in a git work tree (git-files.ts, git-blobs.ts): a clean tracked file is recorded as a reference
 * to its index blob, not copied, and a command's change to it is restored from git's object store byte-exact with
 * its mode; a file whose bytes on disk are not its blob (CRLF conversion) is copied; a nested repository's files are
 * covered; a blob git pruned during the command is reported, never written wrong; git's index and HEAD stay
 * untouched; without git on the PATH (or outside a repository) the walk still covers everything. Driven through
 * ProjectCheckpoints and rewind() with a real session file and real repositories in temp directories.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectCheckpoints } from '../../src/checkpoints/project-checkpoints.js';
import { limitsFromEnv } from '../../src/checkpoints/limits.js';
import { SessionStore } from '../../src/store/session-store.js';
import { bashTool } from '../../src/tools/processes/bash.js';
import type { ToolDefinition } from '../../src/tools/registry/define-tool.js';
import { commitAll, git, tempRepo } from './support/git-repos.js';

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});
const temp = () => tempRepo('mca-checkpoints-git-');

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes (hex) and mode of a file, or "absent". */
function state(path: string): string {
  return existsSync(path) ? `${(statSync(path).mode & 0o7777).toString(8)}:${readFileSync(path, 'hex')}` : 'absent';
}

async function session(root: string, home: string) {
  const store = new SessionStore(home, root);
  const writer = await store.create('m');
  const checkpoints = new ProjectCheckpoints(store, store.projectRoot, limitsFromEnv({}));
  writer.appendMessage({ role: 'user', content: 'go', metadata: { round: 1, ts: new Date().toISOString() } });
  await new Promise((resolve) => setTimeout(resolve, 3));
  return { checkpoints, id: writer.sessionId };
}

/** The snapshot around one command; `between` runs after the scan before it and before the command. */
async function bash(
  s: { checkpoints: ProjectCheckpoints; id: string },
  root: string,
  command: string,
  between?: () => void | Promise<void>,
): Promise<void> {
  const after = await s.checkpoints.beforeRun(
    s.id,
    { id: `toolu_${command.length}`, name: 'Bash', input: { command }, source: 'model' },
    bashTool as ToolDefinition,
    new AbortController().signal,
  );
  await between?.();
  execFileSync('/bin/bash', ['-c', command], { cwd: root, env: process.env });
  await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
}

async function rewindAll(s: { checkpoints: ProjectCheckpoints; id: string }) {
  const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
  return await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', { code: true, conversation: false });
}

describe('the Bash snapshot in a git work tree', () => {
  it('restores a clean tracked file a command changed from git, byte-exact with its mode, copying nothing first', async () => {
    const { root, home } = temp();
    const script = Buffer.from('#!/bin/sh\necho one\n\u00e9\u0000\u00ff\n', 'latin1');
    writeFileSync(join(root, 'run.sh'), script);
    chmodSync(join(root, 'run.sh'), 0o750);
    writeFileSync(join(root, 'gone.txt'), 'to be deleted\n');
    writeFileSync(join(root, 'staged.txt'), 'before staging\n');
    commitAll(root);
    // Stat-dirty against the index (same bytes, new times): git would refresh its index here; mca must not.
    execFileSync('touch', ['-d', '2001-01-01', join(root, 'gone.txt')]);
    const head = git(root, 'rev-parse', 'HEAD');
    const before = ['run.sh', 'gone.txt', 'staged.txt'].map((name) => state(join(root, name)));
    const s = await session(root, home);
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    await bash(
      s,
      root,
      'echo two >> run.sh && chmod 644 run.sh && rm gone.txt && echo staged >> staged.txt && git add staged.txt',
      async () => {
        // The scan before the command holds references, not copies, of the clean tracked files.
        expect(await blobs.has(sha256(script))).toBe(false);
        expect(await blobs.has(sha256('to be deleted\n'))).toBe(false);
      },
    );
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('staged.txt');
    git(root, 'reset', '-q'); // the command staged a change; the index is the user's business, put it back
    const index = sha256(readFileSync(join(root, '.git', 'index')));
    const result = await rewindAll(s);
    expect(result.plan.notRestorable).toEqual([]);
    expect(result.applied?.restored.sort()).toEqual(['gone.txt', 'run.sh', 'staged.txt']);
    expect(['run.sh', 'gone.txt', 'staged.txt'].map((name) => state(join(root, name)))).toEqual(before);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(sha256(readFileSync(join(root, '.git', 'index')))).toBe(index);
  });

  it('uses references when the project is a subdirectory of the repository', async () => {
    const { root: top, home } = temp();
    mkdirSync(join(top, 'pkg'));
    writeFileSync(join(top, 'pkg', 'lib.txt'), 'library\n');
    writeFileSync(join(top, 'outer.txt'), 'outside the project\n');
    commitAll(top);
    const root = join(top, 'pkg');
    const s = await session(root, home);
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    await bash(s, root, 'echo changed > lib.txt', async () => {
      expect(await blobs.has(sha256('library\n'))).toBe(false);
    });
    const result = await rewindAll(s);
    expect(result.applied?.restored).toEqual(['lib.txt']);
    expect(readFileSync(join(root, 'lib.txt'), 'utf8')).toBe('library\n');
  });

  it('leaves git HEAD and index byte-identical across a scan of stat-dirty files', async () => {
    const { root, home } = temp();
    for (let i = 0; i < 20; i += 1) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    commitAll(root);
    for (let i = 0; i < 20; i += 1) execFileSync('touch', [join(root, `f${i}.txt`)]);
    const index = sha256(readFileSync(join(root, '.git', 'index')));
    const s = await session(root, home);
    await bash(s, root, 'true');
    await bash(s, root, 'echo x > f1.txt');
    expect(sha256(readFileSync(join(root, '.git', 'index')))).toBe(index);
    expect(existsSync(join(root, '.git', 'index.lock'))).toBe(false);
  });

  it('copies a tracked file whose bytes on disk are not its blob (CRLF checkout) and restores those bytes', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, '.gitattributes'), '*.txt text eol=crlf\n');
    writeFileSync(join(root, 'crlf.txt'), 'one\ntwo\n');
    commitAll(root);
    rmSync(join(root, 'crlf.txt'));
    git(root, 'checkout', '--', 'crlf.txt');
    const before = state(join(root, 'crlf.txt'));
    expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
    const s = await session(root, home);
    await bash(s, root, 'printf changed > crlf.txt');
    await rewindAll(s);
    expect(state(join(root, 'crlf.txt'))).toBe(before);
  });

  it("covers untracked files and a nested repository's files", async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'tracked.txt'), 'tracked\n');
    writeFileSync(join(root, '.gitignore'), 'ignored/\n');
    commitAll(root);
    writeFileSync(join(root, 'untracked.txt'), 'mine\n');
    mkdirSync(join(root, 'inner'));
    writeFileSync(join(root, 'inner', 'deep.txt'), 'deep\n');
    git(join(root, 'inner'), 'init', '-q');
    const before = ['untracked.txt', 'inner/deep.txt'].map((name) => state(join(root, name)));
    const s = await session(root, home);
    await bash(s, root, 'rm untracked.txt && echo changed > inner/deep.txt && mkdir -p ignored && echo x > ignored/y');
    const result = await rewindAll(s);
    expect(result.applied?.restored.sort()).toEqual(['inner/deep.txt', 'untracked.txt']);
    expect(['untracked.txt', 'inner/deep.txt'].map((name) => state(join(root, name)))).toEqual(before);
  });

  it('reports a file whose blob git pruned during the command as not restorable, writing nothing', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'base.txt'), 'base\n');
    commitAll(root);
    writeFileSync(join(root, 'only-staged.txt'), 'in the index only\n');
    git(root, 'add', 'only-staged.txt');
    const s = await session(root, home);
    await bash(
      s,
      root,
      'git rm -q --cached only-staged.txt && echo changed > only-staged.txt && git prune --expire=now',
    );
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    const result = await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', { code: true, conversation: false });
    expect(result.plan.notRestorable).toEqual([
      { path: 'only-staged.txt', reason: 'its git object is gone or damaged (pruned by git?)' },
    ]);
    expect(readFileSync(join(root, 'only-staged.txt'), 'utf8')).toBe('changed\n');
  });

  it('does not trust a git object whose bytes do not match its id (planted during the command)', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'f.txt'), 'original\n');
    commitAll(root);
    const id = git(root, 'rev-parse', 'HEAD:f.txt');
    const object = join(root, '.git', 'objects', id.slice(0, 2), id.slice(2));
    const s = await session(root, home);
    await bash(s, root, 'echo changed > f.txt', () => {
      chmodSync(object, 0o644);
      writeFileSync(object, deflateSync(Buffer.from('blob 8\0planted\n')));
    });
    const result = await rewindAll(s);
    expect(result.plan.notRestorable.map((item) => item.path)).toEqual(['f.txt']);
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('changed\n');
  });

  it('still restores everything with git missing from the PATH (the walk lists the files)', async () => {
    const { root, home, base } = temp();
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    writeFileSync(join(root, 'b.txt'), 'beta\n');
    commitAll(root);
    const bin = join(base, 'bin');
    mkdirSync(bin);
    for (const tool of ['rm', 'chmod', 'sync', 'cat'])
      symlinkSync(execFileSync('which', [tool], { encoding: 'utf8' }).trim(), join(bin, tool));
    process.env.PATH = bin;
    const before = ['a.txt', 'b.txt', 'c.txt'].map((name) => state(join(root, name)));
    const s = await session(root, home);
    await bash(s, root, 'printf changed > a.txt && chmod 600 a.txt && rm b.txt && printf new > c.txt');
    await rewindAll(s);
    expect(['a.txt', 'b.txt', 'c.txt'].map((name) => state(join(root, name)))).toEqual(before);
  });

  it('still restores everything in a project that is no git repository', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    writeFileSync(join(root, '.gitignore'), 'skip/\n');
    const before = ['a.txt', 'c.txt'].map((name) => state(join(root, name)));
    const s = await session(root, home);
    await bash(s, root, 'printf changed > a.txt && printf new > c.txt');
    await rewindAll(s);
    expect(['a.txt', 'c.txt'].map((name) => state(join(root, name)))).toEqual(before);
  });
});
