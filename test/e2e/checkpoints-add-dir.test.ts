/**
 * Issue 28, added directories, through the built binary against the loopback fake API: a prompt that Writes a
 * file in an `--add-dir` root, Edits one there, and runs a Bash command that changes (and chmods), creates and
 * deletes files there and in the project; `mca rewind <id> --dry-run` lists the added directory's files by their
 * absolute path, and `mca rewind <id>` (run without --add-dir: the journal recorded the root) restores every one
 * exactly (bytes and mode) while both repositories' HEAD and index stay as they were. A Write outside every root
 * is still refused, and nothing of it is journalled or restored.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, agentScript, finish } from './support/agent-script.js';

let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

function commitAll(root: string): void {
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, '-c', 'user.email=t@e.st', '-c', 'user.name=t', 'commit', '-qm', 'base');
}

function gitState(root: string): string {
  return `${git(root, 'rev-parse', 'HEAD')} ${createHash('sha256')
    .update(readFileSync(join(root, '.git', 'index')))
    .digest('hex')}`;
}

/** Bytes and mode of every file named (absolute), or "absent". */
function snapshot(paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of paths) {
    out[path] = existsSync(path)
      ? `${(statSync(path).mode & 0o777).toString(8)}:${readFileSync(path, 'hex')}`
      : 'absent';
  }
  return out;
}

function env(home: string): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: 'sk-ant-test-checkpoints-0123456789',
    ANTHROPIC_BASE_URL: server?.url ?? '',
    MCA_HOME: home,
    MCA_PERMISSION_MODE: 'bypassPermissions',
    MCA_TOOL_PROTOCOL: 'text',
  };
}

it('files a prompt changed in an --add-dir root (Write, Edit, Bash) are restored exactly by mca rewind', async () => {
  const { root, home } = tempProject('mca-e2e-ckpt-adddir-', { 'main.txt': 'main\n' });
  commitAll(root);
  const base = join(root, '..');
  // The added directory: a repository of its own with a committed script, an untracked note and a file to delete.
  const extra = join(base, 'extra');
  mkdirSync(join(extra, 'sub'), { recursive: true });
  writeFileSync(join(extra, 'tool.sh'), '#!/bin/sh\necho one\n');
  writeFileSync(join(extra, 'gone.txt'), 'to be deleted\n');
  commitAll(extra);
  writeFileSync(join(extra, 'sub', 'notes.txt'), 'untracked notes\n');
  chmodSync(join(extra, 'tool.sh'), 0o644);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  const names = [
    join(extra, 'written.txt'),
    join(extra, 'sub', 'notes.txt'),
    join(extra, 'tool.sh'),
    join(extra, 'gone.txt'),
    join(extra, 'made.txt'),
    join(root, 'main.txt'),
    join(outside, 'nope.txt'),
  ];
  const before = snapshot(names);
  const gitBefore = [gitState(root), gitState(extra)];

  const script = agentScript(
    [
      act('write there', 'Write', { path: join(extra, 'written.txt'), content: 'written in the added dir\n' }),
      act('read there', 'Read', { path: join(extra, 'sub', 'notes.txt') }),
      act('edit there', 'Edit', {
        path: join(extra, 'sub', 'notes.txt'),
        old_string: 'untracked',
        new_string: 'edited',
      }),
      act('outside', 'Write', { path: join(outside, 'nope.txt'), content: 'must not exist\n' }),
      act('shell there', 'Bash', {
        command: `echo two >> ${extra}/tool.sh && chmod 755 ${extra}/tool.sh && rm ${extra}/gone.txt && printf m > ${extra}/made.txt && echo changed > main.txt`,
      }),
      finish('done', 'changed both roots'),
    ],
    { text: 'unused' },
  );
  server = await startFakeAnthropic(Array.from({ length: 6 }, () => script.step));
  const ran = await runMca(['--add-dir', extra, '-p', 'change the added dir'], { cwd: root, env: env(home) });
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  // The Write outside every root was refused (the model was told so) and left nothing.
  expect(userText(script.agentRequests[4] ?? {})).toContain('outside the project root');
  expect(existsSync(join(outside, 'nope.txt'))).toBe(false);
  const changed = snapshot(names);
  expect(changed[join(extra, 'tool.sh')]).toMatch(/^755:/);
  expect(changed[join(extra, 'gone.txt')]).toBe('absent');
  expect(changed[join(extra, 'written.txt')]).not.toBe('absent');
  expect(readFileSync(join(extra, 'sub', 'notes.txt'), 'utf8')).toBe('edited notes\n');

  const list = await runMca(['rewind', '--list'], { cwd: root, env: { MCA_HOME: home } });
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(/^[0-9a-f]{8} .* 6 files +change the added dir$/m);
  const id = list.stdout.trim().slice(0, 8);

  // The preview names the added directory's files by absolute path (no --add-dir needed: the journal has the root).
  const preview = await runMca(['rewind', id, '--dry-run'], { cwd: root, env: { MCA_HOME: home } });
  expect(preview.code).toBe(0);
  expect(preview.stdout).toContain('Would restore 6 files:');
  for (const name of ['written.txt', 'sub/notes.txt', 'tool.sh', 'gone.txt', 'made.txt'])
    expect(preview.stdout).toContain(join(extra, name));
  expect(preview.stdout).toContain('main.txt');
  expect(preview.stdout).not.toContain('nope.txt');
  expect(snapshot(names)).toEqual(changed);

  const rewound = await runMca(['rewind', id], { cwd: root, env: { MCA_HOME: home } });
  expect(rewound.stderr).toBe('');
  expect(rewound.code).toBe(0);
  expect(rewound.stdout).toContain('Restored 6 files');
  expect(snapshot(names)).toEqual(before);
  expect([gitState(root), gitState(extra)]).toEqual(gitBefore);
});
