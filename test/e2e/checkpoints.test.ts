/**
 * Issue 28 through the built binary against the loopback fake API, in a temp git repository: a prompt that Edits
 * a file, Writes a new one and runs a Bash command that creates, changes (and chmods) and deletes files; then
 * `mca rewind <id>` restores every one exactly (bytes and mode) and leaves git's HEAD and index as they were;
 * a conversation-only rewind drops the later prompts from the next request while the code stays; a file changed
 * outside mca after the checkpoint is reported and not overwritten; hostile checkpoint ids are refused.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Bytes and mode of every file named, or "absent". */
function snapshot(root: string, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const path = join(root, name);
    out[name] = existsSync(path)
      ? `${(statSync(path).mode & 0o777).toString(8)}:${readFileSync(path, 'hex')}`
      : 'absent';
  }
  return out;
}

const NAMES = ['edited.txt', 'new.txt', 'created.txt', 'changed.sh', 'deleted.txt', 'later.txt', 'untouched.txt'];

async function setup() {
  const project = tempProject('mca-e2e-checkpoints-', {
    'edited.txt': 'alpha\nbeta\n',
    'changed.sh': '#!/bin/sh\necho one\n',
    'deleted.txt': 'to be deleted\n',
    'untouched.txt': 'same\n',
    '.gitignore': 'ignored/\n',
  });
  const { root } = project;
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, '-c', 'user.email=t@e.st', '-c', 'user.name=t', 'commit', '-qm', 'base');
  chmodSync(join(root, 'changed.sh'), 0o644);
  return project;
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

const FIRST_PROMPT = [
  act('read it', 'Read', { path: 'edited.txt' }),
  act('edit it', 'Edit', { path: 'edited.txt', old_string: 'beta', new_string: 'gamma' }),
  act('a new file', 'Write', { path: 'new.txt', content: 'brand new\n' }),
  act('shell changes', 'Bash', {
    command: 'printf made > created.txt && echo two >> changed.sh && chmod 755 changed.sh && rm deleted.txt',
  }),
  finish('done', 'changed everything'),
];
const SECOND_PROMPT = [
  act('one more', 'Write', { path: 'later.txt', content: 'later\n' }),
  finish('ok', 'wrote later'),
];

it('mca rewind <id> restores every file a prompt changed, exactly, and leaves git HEAD and index alone', async () => {
  const { root, home } = await setup();
  const before = snapshot(root, NAMES);
  const head = git(root, 'rev-parse', 'HEAD');
  const index = fileHash(join(root, '.git', 'index'));
  const script = agentScript([...FIRST_PROMPT, ...SECOND_PROMPT], { text: 'unused' });
  server = await startFakeAnthropic(Array.from({ length: 8 }, () => script.step));
  const first = await runMca(['-p', 'change the files'], { cwd: root, env: env(home) });
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  const second = await runMca(['-c', '-p', 'and one more'], { cwd: root, env: env(home) });
  expect(second.code).toBe(0);
  const changed = snapshot(root, NAMES);
  expect(changed['deleted.txt']).toBe('absent');
  expect(changed['changed.sh']).toMatch(/^755:/);

  const list = await runMca(['rewind', '--list'], { cwd: root, env: { MCA_HOME: home } });
  expect(list.code).toBe(0);
  const lines = list.stdout.trim().split('\n');
  expect(lines).toHaveLength(2);
  // Newest first: id, time, changed-file count, the prompt's first line.
  expect(lines[0]).toMatch(/^[0-9a-f]{8} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}1 file +and one more$/);
  expect(lines[1]).toMatch(/^[0-9a-f]{8} .* 5 files +change the files$/);
  const id = lines[1]?.slice(0, 8) ?? '';

  const rewound = await runMca(['rewind', id], { cwd: root, env: { MCA_HOME: home } });
  expect(rewound.stderr).toBe('');
  expect(rewound.code).toBe(0);
  expect(rewound.stdout).toContain('Restored 6 files');
  expect(snapshot(root, NAMES)).toEqual(before);
  expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
  expect(fileHash(join(root, '.git', 'index'))).toBe(index);

  // The rewind made a checkpoint of its own: undoing it brings the changed files back.
  const undo = /Undo with: mca rewind ([0-9a-f]{8})/.exec(rewound.stdout)?.[1] ?? '';
  const undone = await runMca(['rewind', undo, '--code'], { cwd: root, env: { MCA_HOME: home } });
  expect(undone.code).toBe(0);
  expect(snapshot(root, NAMES)).toEqual(changed);
});

it('a conversation-only rewind drops the later prompts from the next request while the code stays', async () => {
  const { root, home } = await setup();
  const third = [finish('fresh', 'continued')];
  const script = agentScript([...FIRST_PROMPT, ...SECOND_PROMPT, ...third], { text: 'unused' });
  server = await startFakeAnthropic(Array.from({ length: 9 }, () => script.step));
  expect((await runMca(['-p', 'change the files'], { cwd: root, env: env(home) })).code).toBe(0);
  expect((await runMca(['-c', '-p', 'and one more'], { cwd: root, env: env(home) })).code).toBe(0);
  const changed = snapshot(root, NAMES);
  const list = await runMca(['rewind', '--list'], { cwd: root, env: { MCA_HOME: home } });
  const id = list.stdout.trim().split('\n')[0]?.slice(0, 8) ?? '';
  const rewound = await runMca(['rewind', id, '--conversation'], { cwd: root, env: { MCA_HOME: home } });
  expect(rewound.code).toBe(0);
  expect(snapshot(root, NAMES)).toEqual(changed);
  const next = await runMca(['-c', '-p', 'what now?'], { cwd: root, env: env(home) });
  expect(next.code).toBe(0);
  const request = userText(script.agentRequests.at(-1) ?? {});
  expect(request).toContain('change the files');
  expect(request).not.toContain('and one more');
  expect(request).toContain('what now?');
});

it('a file changed outside mca after the checkpoint is reported, not overwritten (unless --force)', async () => {
  const { root, home } = await setup();
  const script = agentScript([...FIRST_PROMPT], { text: 'unused' });
  server = await startFakeAnthropic(Array.from({ length: 5 }, () => script.step));
  expect((await runMca(['-p', 'change the files'], { cwd: root, env: env(home) })).code).toBe(0);
  writeFileSync(join(root, 'new.txt'), 'the user edited this\n');
  const list = await runMca(['rewind', '--list'], { cwd: root, env: { MCA_HOME: home } });
  const id = list.stdout.trim().slice(0, 8);
  const refused = await runMca(['rewind', id], { cwd: root, env: { MCA_HOME: home } });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('changed outside mca');
  expect(refused.stderr).toContain('new.txt');
  expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('the user edited this\n');
  expect(existsSync(join(root, 'created.txt'))).toBe(true);
  const forced = await runMca(['rewind', id, '--force'], { cwd: root, env: { MCA_HOME: home } });
  expect(forced.code).toBe(0);
  expect(existsSync(join(root, 'new.txt'))).toBe(false);
});

it('a checkpoint id that is not one (../../x, a long string) is refused without touching anything', async () => {
  const { root, home } = await setup();
  const script = agentScript([finish('hi', 'hello')], { text: 'unused' });
  server = await startFakeAnthropic([script.step]);
  expect((await runMca(['-p', 'hi'], { cwd: root, env: env(home) })).code).toBe(0);
  for (const id of ['../../x', 'deadbeef', `${'a'.repeat(5000)}`]) {
    const result = await runMca(['rewind', id], { cwd: root, env: { MCA_HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not a checkpoint id|no checkpoint/);
  }
});

it('mca killed (kill -9) during a Bash call leaves a checkpoint that restores what the command changed', async () => {
  const { root, home } = await setup();
  const before = snapshot(root, NAMES);
  // The command changes files and then kills mca itself: the scan before it was recorded, its end never was.
  const script = agentScript(
    [
      act('crash', 'Bash', {
        command: 'echo crashed > edited.txt && printf x > created.txt && rm deleted.txt && kill -9 $PPID',
      }),
    ],
    { text: 'unused' },
  );
  server = await startFakeAnthropic([script.step]);
  const crashed = await runMca(['-p', 'run the crashing command'], { cwd: root, env: env(home) });
  expect(crashed.code).not.toBe(0);
  expect(readFileSync(join(root, 'edited.txt'), 'utf8')).toBe('crashed\n');
  const list = await runMca(['rewind', '--list'], { cwd: root, env: { MCA_HOME: home } });
  expect(list.stdout).toMatch(/ 3 files +run the crashing command/);
  const id = list.stdout.trim().slice(0, 8);
  const rewound = await runMca(['rewind', id, '--code'], { cwd: root, env: { MCA_HOME: home } });
  expect(rewound.code).toBe(0);
  expect(snapshot(root, NAMES)).toEqual(before);
});
