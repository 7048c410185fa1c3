/**
 * Real git repositories in temp directories for the checkpoint tests: a project folder with a home beside it, files
 * written from a tree, and a first commit (optionally with every file's mtime aged, so git's index may vouch for it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs git in `root` (no automatic gc) and returns its trimmed stdout. */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'gc.auto=0', ...args], { cwd: root, encoding: 'utf8' }).trim();
}

/** Temp folders named `prefix…`, each removed by `removeAll()` (call it in afterEach). */
export function tempFolders(prefix: string): {
  project(): { root: string; home: string; base: string };
  removeAll(): void;
} {
  const made: string[] = [];
  return {
    project() {
      const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      made.push(base);
      const root = join(base, 'project');
      mkdirSync(root);
      return { root, home: join(base, 'home'), base };
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes each path of `tree` under `root`, making its folders. */
export function writeTree(root: string, tree: Record<string, string>): void {
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
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
