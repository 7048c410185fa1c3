/**
 * `@` completion for the REPL: project entries whose path starts with what the user typed, directories first,
 * .gitignore'd and hidden entries left out. File-system policy stays here; the UI only shows the list.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';

const ALWAYS_HIDDEN = new Set(['.git', 'node_modules']);
const MAX_RESULTS = 50;

async function loadGitignore(projectRoot: string): Promise<Ignore> {
  const rules = ignore();
  try {
    rules.add(await readFile(join(projectRoot, '.gitignore'), 'utf8'));
  } catch {
    // No .gitignore: nothing extra to hide.
  }
  return rules;
}

export function createPathCompleter(projectRoot: string): (prefix: string) => Promise<string[]> {
  let rules: Promise<Ignore> | undefined;
  return async (prefix) => {
    rules ??= loadGitignore(projectRoot);
    const ignored = await rules;
    if (prefix.includes('..') || prefix.startsWith('/')) return [];
    const slash = prefix.lastIndexOf('/');
    const dir = slash >= 0 ? prefix.slice(0, slash + 1) : '';
    const stem = prefix.slice(dir.length);
    let entries;
    try {
      entries = await readdir(join(projectRoot, dir), { withFileTypes: true });
    } catch {
      return [];
    }
    const matches: Array<{ path: string; isDir: boolean }> = [];
    for (const entry of entries) {
      if (!entry.name.startsWith(stem) || ALWAYS_HIDDEN.has(entry.name)) continue;
      if (entry.name.startsWith('.') && !stem.startsWith('.')) continue;
      const isDir = entry.isDirectory();
      const path = posix.join(dir, entry.name);
      if (ignored.ignores(isDir ? `${path}/` : path)) continue;
      matches.push({ path: isDir ? `${path}/` : path, isDir });
    }
    matches.sort((a, b) => (a.isDir === b.isDir ? a.path.localeCompare(b.path) : a.isDir ? -1 : 1));
    return matches.slice(0, MAX_RESULTS).map((match) => match.path);
  };
}
