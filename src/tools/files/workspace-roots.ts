/**
 * The session's additional working directories (Claude Code's `--add-dir`, `/add-dir` and the settings'
 * `permissions.additionalDirectories`): more roots the file tools may read and change, each with the project
 * root's confinement rules (workspace.ts: symlinks resolved, control directories protected in each root). The
 * list only grows during a session; tools take a snapshot of it for each step.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../../fs/contained-path.js';

export type RootCheck = { ok: true; real: string } | { ok: false; message: string };

/** `~` and `~/x` as the shell would expand them (the user's own words: a flag, a settings file, `/add-dir`). */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/**
 * Checks that `dir` (relative to `base` unless absolute) is an existing directory and returns its real path;
 * otherwise one line naming what is wrong.
 */
export function checkRootDirectory(dir: string, base: string): RootCheck {
  const expanded = expandHome(dir.trim());
  if (expanded === '') return { ok: false, message: 'no directory given' };
  const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return { ok: false, message: `${absolute} does not exist` };
  }
  try {
    if (!statSync(real).isDirectory()) return { ok: false, message: `${absolute} is not a directory` };
  } catch {
    return { ok: false, message: `${absolute} cannot be read` };
  }
  return { ok: true, real };
}

export type AddRootResult = RootCheck & { already?: boolean };

export class WorkspaceRoots {
  private readonly added: string[] = [];

  /** `projectRoot`: absolute and symlink-resolved. */
  constructor(readonly projectRoot: string) {}

  /** The added roots (real paths), in the order they were added. */
  list(): readonly string[] {
    return [...this.added];
  }

  /**
   * Adds `dir` (relative to the project root unless absolute). A directory already covered (the project itself,
   * or inside a root already added) is reported with `already`, not added twice.
   */
  add(dir: string): AddRootResult {
    const checked = this.check(dir);
    if (!checked.ok || checked.already) return checked;
    this.added.push(checked.real);
    return checked;
  }

  /** What `add` would answer, without adding. */
  check(dir: string): AddRootResult {
    const checked = checkRootDirectory(dir, this.projectRoot);
    if (!checked.ok) return checked;
    const covered = [this.projectRoot, ...this.added].some((root) => isInside(root, checked.real));
    return covered ? { ...checked, already: true } : checked;
  }
}
