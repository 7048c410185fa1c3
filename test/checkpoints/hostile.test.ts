/**
 * The checkpoint store against hostile projects: symlinks (out of the project, swapped in for a directory before a
 * restore), FIFOs, files over the size cap, more files than the scan limit, a damaged blob, and pruning. Driven
 * through SessionCheckpoints and rewind() with a real session file and real files in temp directories.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/checkpoints/blob-store.js';
import { captureFile } from '../../src/checkpoints/file-capture.js';
import { ProjectCheckpoints } from '../../src/checkpoints/project-checkpoints.js';
import { DEFAULT_LIMITS } from '../../src/checkpoints/session-checkpoints.js';
import { limitsFromEnv } from '../../src/checkpoints/limits.js';
import { SessionStore } from '../../src/store/session-store.js';
import { bashTool } from '../../src/tools/processes/bash.js';
import { writeTool } from '../../src/tools/editing/write.js';
import type { ToolDefinition } from '../../src/tools/registry/define-tool.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): { root: string; home: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-checkpoints-')));
  dirs.push(base);
  const root = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, home: join(base, 'home'), outside };
}

/** A session with prompts at the given times, and the project's checkpoints over it. */
async function session(root: string, home: string, limits = {}) {
  const store = new SessionStore(home, root);
  const writer = await store.create('m');
  const checkpoints = new ProjectCheckpoints(store, store.projectRoot, { ...limitsFromEnv({}), ...limits });
  let round = 0;
  const prompt = (text: string): void => {
    round += 1;
    writer.appendMessage({ role: 'user', content: text, metadata: { round, ts: new Date().toISOString() } });
  };
  return { store, writer, checkpoints, prompt, id: writer.sessionId };
}

async function bash(checkpoints: ProjectCheckpoints, id: string, root: string, command: string): Promise<void> {
  const after = await checkpoints.beforeRun(
    id,
    { id: `toolu_${command.length}`, name: 'Bash', input: { command }, source: 'model' },
    bashTool as ToolDefinition,
    new AbortController().signal,
  );
  execFileSync('bash', ['-c', command], { cwd: root });
  await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
}

async function tick(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3));
}

describe('checkpoints on a hostile project', () => {
  it('never writes through a directory swapped for a symlink out of the project', async () => {
    const { root, home, outside } = temp();
    mkdirSync(join(root, 'dir'));
    writeFileSync(join(root, 'dir', 'x.txt'), 'original\n');
    const s = await session(root, home);
    s.prompt('change x');
    await tick();
    await bash(s.checkpoints, s.id, root, 'echo changed > dir/x.txt');
    // The user (or a command) replaces dir with a symlink pointing outside the project.
    rmSync(join(root, 'dir'), { recursive: true });
    symlinkSync(outside, join(root, 'dir'));
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    const result = await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', {
      code: true,
      conversation: false,
      force: true,
    });
    expect(result.plan.notRestorable.map((item) => item.path)).toContain('dir/x.txt');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('skips FIFOs and symlinks in a scan, and a FIFO never blocks a capture', async () => {
    const { root, home, outside } = temp();
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const captured = await captureFile(join(root, 'pipe'), new BlobStore(join(home, 'blobs')), 1024);
    expect(captured.state).toEqual({ kind: 'unrestorable', reason: 'not a regular file' });
    const link = await captureFile(join(root, 'link.txt'), new BlobStore(join(home, 'blobs')), 1024);
    expect(link.state.kind).toBe('unrestorable');
    const s = await session(root, home);
    s.prompt('touch things');
    await tick();
    await bash(s.checkpoints, s.id, root, 'echo more >> link.txt; echo new > made.txt');
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    // The write through the symlink landed outside the project: nothing mca can (or may) restore there.
    expect(checkpoint?.files).toEqual(['made.txt']);
  });

  it('lists a file over the size cap that a command changed as not restorable', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'big.bin'), Buffer.alloc(4096, 1));
    const s = await session(root, home, { maxFileBytes: 1024 });
    s.prompt('grow it');
    await tick();
    await bash(s.checkpoints, s.id, root, 'echo x >> big.bin');
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    const result = await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', {
      code: true,
      conversation: false,
      dryRun: true,
    });
    expect(result.plan.notRestorable).toEqual([
      { path: 'big.bin', reason: 'larger than the 1024-byte checkpoint limit' },
    ]);
  });

  it('does not scan a project with more files than the limit, and says so at rewind time', async () => {
    const { root, home } = temp();
    for (let index = 0; index < 30; index += 1) writeFileSync(join(root, `f${index}.txt`), `${index}\n`);
    const s = await session(root, home, { maxFiles: 20 });
    s.prompt('many');
    await tick();
    await bash(s.checkpoints, s.id, root, 'rm f1.txt');
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    const result = await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', {
      code: true,
      conversation: false,
      dryRun: true,
    });
    expect(result.plan.untracked).toEqual(['the project has more than 20 files']);
    expect(existsSync(join(home, 'projects'))).toBe(true);
    expect(DEFAULT_LIMITS.maxFiles).toBe(50_000);
  });

  it('reports a damaged stored copy instead of writing wrong bytes', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'a.txt'), 'original\n');
    const s = await session(root, home);
    s.prompt('edit a');
    await tick();
    const after = await s.checkpoints.beforeRun(
      s.id,
      { id: 'toolu_w', name: 'Write', input: { path: 'a.txt', content: 'new\n' }, source: 'model' },
      writeTool as ToolDefinition,
      new AbortController().signal,
    );
    writeFileSync(join(root, 'a.txt'), 'new\n');
    await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    const hash = (await import('node:crypto')).createHash('sha256').update('original\n').digest('hex');
    writeFileSync(blobs.pathOf(hash), 'tampered\n');
    const [checkpoint] = await s.checkpoints.listCheckpoints(s.id);
    const result = await s.checkpoints.rewind(s.id, checkpoint?.id ?? '', { code: true, conversation: false });
    expect(result.applied?.failed).toEqual([{ path: 'a.txt', reason: 'its stored copy is missing or damaged' }]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new\n');
  });

  it('keeps its files private (0600) and out of the project', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const s = await session(root, home);
    s.prompt('x');
    await tick();
    await bash(s.checkpoints, s.id, root, 'echo b > a.txt');
    const dir = (await s.checkpoints.session(s.id)).dir;
    expect(dir.startsWith(home)).toBe(true);
    const files = execFileSync('find', [dir, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n');
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(root).sort()).toEqual(['a.txt']);
  });

  it('prunes to the newest checkpoints and sweeps the copies only they held', async () => {
    const { root, home } = temp();
    writeFileSync(join(root, 'a.txt'), 'v0\n');
    const s = await session(root, home);
    for (let version = 1; version <= 4; version += 1) {
      s.prompt(`v${version}`);
      await tick();
      await bash(s.checkpoints, s.id, root, `echo v${version} > a.txt`);
      await tick();
    }
    const blobs = (await s.checkpoints.session(s.id)).blobs;
    const v0 = (await import('node:crypto')).createHash('sha256').update('v0\n').digest('hex');
    expect(await blobs.has(v0)).toBe(true);
    // A later process (MCA_CHECKPOINT_KEEP=2) opens the session: the two oldest prompts' copies go.
    const later = new ProjectCheckpoints(s.store, s.store.projectRoot, {
      ...limitsFromEnv({ MCA_CHECKPOINT_KEEP: '2' }),
    });
    const list = await later.listCheckpoints(s.id);
    expect(list).toHaveLength(4);
    const { prune, pruneCutoff } = await import('../../src/checkpoints/prune.js');
    const cutoff = pruneCutoff(list, { keep: 2, days: 30 });
    expect(cutoff).toBe(list[2]?.ts);
    await prune((await later.session(s.id)).journal, (await later.session(s.id)).blobs, cutoff ?? '');
    expect(await (await later.session(s.id)).blobs.has(v0)).toBe(false);
    const result = await later.rewind(s.id, list[2]?.id ?? '', { code: true, conversation: false });
    expect(result.applied?.restored).toEqual(['a.txt']);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('v2\n');
  });
});
