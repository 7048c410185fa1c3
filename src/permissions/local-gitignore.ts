/**
 * Keeps the project's `.claude/settings.local.json` out of `git status`, the way Claude Code does: when the file
 * is written in a git work tree where git does not already ignore it, the pattern `**\/.claude/settings.local.json`
 * is appended to the user's global excludes file (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`, else
 * `~/.config/git/ignore`). Nothing is written into the project itself. No git, or not a work tree: nothing to do.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const LOCAL_SETTINGS_IGNORE_PATTERN = '**/.claude/settings.local.json';

function git(root: string, args: string[]): { ok: boolean; out: string } {
  try {
    const out = execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    });
    return { ok: true, out: out.trim() };
  } catch {
    return { ok: false, out: '' };
  }
}

/** The user's global excludes file, as git resolves it. */
export function globalExcludesFile(root: string, env: NodeJS.ProcessEnv = sessionEnvironment()): string {
  const configured = git(root, ['config', '--global', '--get', 'core.excludesFile']).out;
  const home = env.HOME ?? homedir();
  if (configured) return configured.startsWith('~/') ? join(home, configured.slice(2)) : configured;
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.config'), 'git', 'ignore');
}

/**
 * Makes git ignore `relative` (the local settings file) in the work tree at `root`; returns the excludes file it
 * appended to, or undefined when nothing was needed (not a repository, already ignored, or git missing).
 */
export function ensureGitIgnored(root: string, relative: string): string | undefined {
  if (!git(root, ['rev-parse', '--is-inside-work-tree']).ok) return undefined;
  if (git(root, ['check-ignore', '-q', '--', relative]).ok) return undefined;
  const file = globalExcludesFile(root);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (before.split('\n').some((line) => line.trim() === LOCAL_SETTINGS_IGNORE_PATTERN)) return undefined;
  mkdirSync(dirname(file), { recursive: true });
  const separator = before === '' || before.endsWith('\n') ? '' : '\n';
  appendFileSync(file, `${separator}${LOCAL_SETTINGS_IGNORE_PATTERN}\n`);
  return file;
}
