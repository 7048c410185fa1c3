import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { loadIgnore } from '../registry/lazy-modules.js';

function isAtOrAbove(dir: string, path: string): boolean {
  if (dir === '' || dir === '.') return true;
  return path === dir || path.startsWith(`${dir}/`);
}

/**
 * .gitignore rules of a project, read lazily per directory (nested .gitignore files included) and cached for
 * the lifetime of one tool call. Paths are project-relative with "/" separators. As in git, a file inside an
 * ignored directory is ignored whatever deeper rules say.
 *
 * Like ripgrep, a directory the caller names explicitly (the base of a search or listing) is searched even when
 * it is itself ignored: then only .gitignore files at or below it apply.
 */
export class GitignoreRules {
  private readonly perDir = new Map<string, Promise<Ignore | undefined>>();
  private readonly dirVerdicts = new Map<string, Promise<boolean>>();

  private constructor(
    private readonly projectRoot: string,
    /** Project-relative base; it and its ancestors are never reported as ignored. */
    private readonly base: string,
    /** Consult only .gitignore files at or below the base (the base itself is ignored). */
    private readonly localOnly: boolean,
  ) {}

  /** True when the base was itself ignored, so only rules at or below it apply. */
  get baseIgnored(): boolean {
    return this.localOnly;
  }

  /** Rules for walking below `baseRel` ("." = project root). */
  static async forBase(projectRoot: string, baseRel = '.'): Promise<GitignoreRules> {
    const base = baseRel === '.' ? '' : baseRel;
    const probe = new GitignoreRules(projectRoot, '', false);
    const baseIgnored = base !== '' && (await probe.ignores(base, true));
    return new GitignoreRules(projectRoot, base, baseIgnored);
  }

  private rulesFor(dir: string): Promise<Ignore | undefined> {
    let pending = this.perDir.get(dir);
    if (!pending) {
      pending = readFile(join(this.projectRoot, dir, '.gitignore'), 'utf8').then(
        async (text) => (await loadIgnore())().add(text),
        () => undefined,
      );
      this.perDir.set(dir, pending);
    }
    return pending;
  }

  /** Whether `relPath` itself matches (deeper .gitignore files win over shallower ones). */
  private async matches(relPath: string, isDir: boolean): Promise<boolean> {
    const parts = relPath.split('/');
    let verdict = false;
    for (let depth = 0; depth < parts.length; depth += 1) {
      const dir = parts.slice(0, depth).join('/');
      if (this.localOnly && !isAtOrAbove(this.base, dir)) continue;
      const rules = await this.rulesFor(dir);
      if (!rules) continue;
      const result = rules.test(parts.slice(depth).join('/') + (isDir ? '/' : ''));
      if (result.ignored) verdict = true;
      else if (result.unignored) verdict = false;
    }
    return verdict;
  }

  /** True when `relPath` (project-relative) is ignored; "." and the base with its ancestors never are. */
  async ignores(relPath: string, isDir: boolean): Promise<boolean> {
    if (relPath === '.' || relPath === '' || isAtOrAbove(relPath, this.base)) return false;
    const cut = relPath.lastIndexOf('/');
    if (cut > 0 && (await this.ignoresDir(relPath.slice(0, cut)))) return true;
    return this.matches(relPath, isDir);
  }

  private ignoresDir(relDir: string): Promise<boolean> {
    let verdict = this.dirVerdicts.get(relDir);
    if (!verdict) {
      verdict = this.ignores(relDir, true);
      this.dirVerdicts.set(relDir, verdict);
    }
    return verdict;
  }
}
