/**
 * `mca --worktree [name]` through the built binary (issue 39): the session works in a new git worktree on its
 * own branch and says where; the main checkout is untouched; a worktree with changes is kept, one without is
 * removed with its branch.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-worktree-0123456789';
let server: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function repository(): { root: string; home: string } {
  const project = tempProject('mca-worktree-', { 'a.txt': 'one\n' });
  git(project.root, 'init', '-q', '-b', 'main');
  git(project.root, 'add', '.');
  git(project.root, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init');
  return project;
}

describe('mca --worktree', () => {
  it('works in .mca/worktrees/<name> on branch mca/<name>, keeps it when changed, removes it when not', async () => {
    const { root, home } = repository();
    server = await startFakeAnthropic([
      { text: 'Writing.', calls: [{ name: 'Write', input: { path: 'b.txt', content: 'made in the worktree\n' } }] },
      { text: 'Written.' },
      { text: 'Nothing to do.' },
    ]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home };
    const path = join(root, '.mca', 'worktrees', 'feature');

    const first = await runMca(['-w', 'feature', '-p', 'make b', '--permission-mode', 'acceptEdits'], {
      cwd: root,
      env,
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Written.');
    expect(first.stderr).toContain(`working in the worktree ${path} (branch mca/feature, created)`);
    expect(first.stderr).toContain(`the worktree ${path} (branch mca/feature) is kept: it has changes`);
    expect(readFileSync(join(path, 'b.txt'), 'utf8')).toBe('made in the worktree\n');
    expect(existsSync(join(root, 'b.txt'))).toBe(false);
    // The main checkout sees nothing of it.
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(git(path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('mca/feature');

    // Checkpoints work inside it: rewinding the prompt there takes b.txt away again.
    const list = await runMca(['rewind', '--list'], { cwd: path, env: { MCA_HOME: home } });
    expect(list.code).toBe(0);
    const id = list.stdout.trim().split('\n')[0]?.slice(0, 8) ?? '';
    expect(list.stdout).toContain('make b');
    const rewound = await runMca(['rewind', id], { cwd: path, env: { MCA_HOME: home } });
    expect(rewound.code).toBe(0);
    expect(existsSync(join(path, 'b.txt'))).toBe(false);

    const second = await runMca(['--worktree', 'quiet', '-p', 'nothing'], { cwd: root, env });
    expect(second.code).toBe(0);
    const quiet = join(root, '.mca', 'worktrees', 'quiet');
    expect(second.stderr).toContain(`removed the worktree ${quiet} and its branch mca/quiet (no changes)`);
    expect(existsSync(quiet)).toBe(false);
    expect(git(root, 'branch', '--list', 'mca/quiet')).toBe('');
    expect(git(root, 'branch', '--list', 'mca/feature')).toContain('mca/feature');
  });

  it('refuses outside a git repository', async () => {
    const { root, home } = tempProject('mca-worktree-none-');
    const run = await runMca(['-w', '-p', 'hi'], { cwd: root, env: { ANTHROPIC_API_KEY: KEY, MCA_HOME: home } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--worktree: a worktree needs a git repository');
  });

  it('a subagent with isolation: worktree edits in its own worktree; the result names the branch it kept', async () => {
    const { root, home } = repository();
    const agents = JSON.stringify({
      iso: { description: 'Works apart', prompt: 'You work in your own worktree.', isolation: 'worktree' },
    });
    const seen: string[] = [];
    server = await startFakeAnthropic([
      {
        text: 'Delegating.',
        calls: [
          { id: 'toolu_iso_1', name: 'Agent', input: { subagent_type: 'iso', description: 'edit', prompt: 'make c' } },
        ],
      },
      { text: 'Writing.', calls: [{ name: 'Write', input: { path: 'c.txt', content: 'by the subagent\n' } }] },
      { text: 'Wrote c.txt.' },
      (body) => {
        seen.push(JSON.stringify(body.messages?.at(-1)?.content ?? ''));
        return { text: 'The subagent is done.' };
      },
    ]);
    const run = await runMca(['-p', 'delegate', '--agents', agents, '--permission-mode', 'bypassPermissions'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: home },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The subagent is done.');
    // Named after the definition and the Agent call (its id's last letters and digits).
    const path = join(root, '.mca', 'worktrees', 'agent-iso-ooluiso1');
    expect(readFileSync(join(path, 'c.txt'), 'utf8')).toBe('by the subagent\n');
    expect(existsSync(join(root, 'c.txt'))).toBe(false);
    expect(seen[0]).toContain(`the worktree ${path} (branch mca/agent-iso-ooluiso1) is kept: it has changes`);
    expect(git(root, 'status', '--porcelain')).toBe('');
  });
});
