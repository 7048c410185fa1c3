import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectEnvironment, renderEnvironment } from '../../src/context/environment.js';

describe('environment block of L1', () => {
  it('states the project root, platform, shell, git, date and model', () => {
    const root = mkdtempSync(join(tmpdir(), 'mca-env-'));
    const plain = detectEnvironment(root, 'm-1', new Date('2026-11-22T10:00:00Z'));
    expect(plain).toMatchObject({ projectRoot: root, isGitRepo: false, date: '2026-11-22', model: 'm-1' });
    mkdirSync(join(root, '.git'));
    const text = renderEnvironment(detectEnvironment(root, 'm-1', new Date('2026-11-22T10:00:00Z')));
    expect(text).toContain(`Project root (all tool paths are relative to it): ${root}`);
    expect(text).toContain('- Git repository: yes');
    expect(text).toContain('- Today: 2026-11-22');
    expect(text).toMatch(/the Bash tool runs commands with (bash|sh)/);
  });

  it('finds the repository from a subdirectory and names the branch (also a worktree .git file, a detached HEAD)', () => {
    const repo = mkdtempSync(join(tmpdir(), 'mca-env-git-'));
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/feature/login\n');
    const sub = join(repo, 'packages', 'app');
    mkdirSync(sub, { recursive: true });
    const text = renderEnvironment(detectEnvironment(sub, 'm'));
    expect(text).toContain('- Git repository: yes, branch feature/login');

    const worktree = mkdtempSync(join(tmpdir(), 'mca-env-wt-'));
    const gitDir = join(repo, '.git', 'worktrees', 'wt');
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(join(gitDir, 'HEAD'), '0123456789abcdef0123456789abcdef01234567\n');
    writeFileSync(join(worktree, '.git'), `gitdir: ${gitDir}\n`);
    expect(renderEnvironment(detectEnvironment(worktree, 'm'))).toContain(
      '- Git repository: yes, HEAD detached at 0123456789ab',
    );
  });

  it('is the same text for the same session facts (it is part of the cached prefix)', () => {
    const facts = detectEnvironment('/p', 'm', new Date('2026-01-01T00:00:00Z'));
    expect(renderEnvironment(facts)).toBe(renderEnvironment({ ...facts }));
  });
});
