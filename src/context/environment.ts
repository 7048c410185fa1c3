/**
 * The facts about the machine the model needs to choose commands and paths (like the environment block of
 * Claude Code's system prompt). Only session-stable facts go in: this text is part of the cached L1 prefix.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { findExecutable } from '../tools/processes/which.js';

export interface EnvironmentFacts {
  projectRoot: string;
  platform: NodeJS.Platform;
  /** What the Bash tool runs commands with. */
  shell: 'bash' | 'sh';
  isGitRepo: boolean;
  /** The checked-out branch (or the short commit when HEAD is detached); absent outside a repository. */
  gitBranch?: string;
  /** YYYY-MM-DD, the session's start day. */
  date: string;
  model: string;
  /** The session's added directories (`--add-dir`, `/add-dir`); absent or empty: none. */
  additionalRoots?: readonly string[];
}

/** A small regular file's text, or undefined (missing, a directory, too big, unreadable). */
function readSmallFile(path: string, maxBytes = 4_096): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The git directory of the repository containing `start` (the project may be a subdirectory): the nearest
 * ancestor's `.git` directory, or the directory a `.git` file (worktree, submodule) points to.
 */
export function findGitDir(start: string): string | undefined {
  let current = resolve(start);
  for (;;) {
    const candidate = join(current, '.git');
    if (isDirectory(candidate)) return candidate;
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallFile(candidate) ?? '')?.[1];
    if (pointer) return isAbsolute(pointer) ? pointer : resolve(current, pointer);
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The branch HEAD names, or the short commit of a detached HEAD; read from the file, no git process. */
export function gitBranch(gitDir: string): string | undefined {
  const head = readSmallFile(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return undefined;
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head)?.[1];
  if (ref) return ref.slice(0, 200);
  return /^[0-9a-f]{7,64}$/i.test(head) ? `detached at ${head.slice(0, 12)}` : undefined;
}

export function detectEnvironment(projectRoot: string, model: string, now: Date = new Date()): EnvironmentFacts {
  const gitDir = findGitDir(projectRoot);
  const branch = gitDir === undefined ? undefined : gitBranch(gitDir);
  return {
    projectRoot,
    platform: process.platform,
    shell: findExecutable('bash') ? 'bash' : 'sh',
    isGitRepo: gitDir !== undefined,
    ...(branch !== undefined ? { gitBranch: branch } : {}),
    date: now.toISOString().slice(0, 10),
    model,
  };
}

/** Git ref names cannot contain spaces, so "detached at …" never collides with a branch name. */
function gitHeadText(branch: string | undefined): string {
  if (branch === undefined) return '';
  return branch.startsWith('detached at ') ? `, HEAD ${branch}` : `, branch ${branch}`;
}

export function renderEnvironment(facts: EnvironmentFacts): string {
  return [
    '# Environment',
    '',
    `- Project root (all tool paths are relative to it): ${facts.projectRoot}`,
    `- Platform: ${facts.platform}; the Bash tool runs commands with ${facts.shell}, in the project root`,
    `- Git repository: ${facts.isGitRepo ? `yes${gitHeadText(facts.gitBranch)}` : 'no'}`,
    `- Today: ${facts.date}`,
    `- Model: ${facts.model}`,
    ...(facts.additionalRoots && facts.additionalRoots.length > 0
      ? [
          `- Additional working directories (the file tools may read and change files there too; name those files by absolute path): ${facts.additionalRoots.join(', ')}`,
        ]
      : []),
  ].join('\n');
}
