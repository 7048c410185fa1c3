/**
 * Real git repositories for the checkpoint tests: a temp project (test/helpers/temp-project.ts) with its folder, and
 * a first commit (optionally with every file's mtime aged, so git's index may vouch for it).
 */
import { execFileSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempProject } from '../../helpers/temp-project.js';

/** Runs git in `root` (no automatic gc) and returns its trimmed stdout. */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'gc.auto=0', ...args], { cwd: root, encoding: 'utf8' }).trim();
}

/** tempProject's project and home, with `base`: the folder holding both (room for things outside the project). */
export function tempRepo(
  prefix: string,
  files: Record<string, string> = {},
): { root: string; home: string; base: string } {
  const { root, home } = tempProject(prefix, files);
  return { root, home, base: dirname(root) };
}

/**
 * `git init`, then everything git does not ignore in one commit. `agedSeconds`: every such file's mtime is set that
 * far back first, so the index caches stats old enough to vouch for.
 */
export function commitAll(root: string, options: { agedSeconds?: number } = {}): void {
  git(root, 'init', '-q');
  if (options.agedSeconds !== undefined) {
    const then = Date.now() / 1000 - options.agedSeconds;
    for (const path of git(root, 'ls-files', '--others', '--cached', '--exclude-standard').split('\n')) {
      if (path !== '') utimesSync(join(root, path), then, then);
    }
  }
  git(root, 'add', '-A');
  git(root, '-c', 'user.email=t@e.st', '-c', 'user.name=t', 'commit', '-qm', 'base');
}
