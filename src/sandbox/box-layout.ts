/**
 * From the resolved settings to the places the box mounts (bwrap-argv.ts): which paths are writable, read-only
 * again, hidden. Paths in settings: absolute as written, `~/…` in the home directory, others relative to the
 * project root.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { expandHome } from '../tools/files/workspace-roots.js';
import { realIfExists } from './bwrap-argv.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** Where the session's box lives (the added directories read at each command). */
export interface BoxPlaces {
  projectRoot: string;
  /** The added directories now (they may grow during the session). */
  roots: () => readonly string[];
  home: string;
  mcaHome: string;
}

export interface LayoutPlaces {
  projectRoot: string;
  /** The added directories (real paths). */
  roots: readonly string[];
  home: string;
  mcaHome: string;
}

/** The credential places no boxed command reads (DESIGN.md "Sandbox"), besides `denyRead`. */
export function credentialPlaces(home: string, mcaHome: string): string[] {
  return [
    join(home, '.ssh'),
    join(home, '.aws'),
    join(home, '.config', 'gcloud'),
    join(home, '.netrc'),
    join(home, '.docker', 'config.json'),
    join(home, '.claude', '.credentials.json'),
    join(home, '.claude.json'),
    join(mcaHome, 'config.json'),
    join(mcaHome, 'mcp-auth'),
  ];
}

/** The control files of one writable root: read-only in the box (a change there widens what mca does). */
export const CONTROL_FILES = ['.git/hooks', '.git/config', '.claude', '.mca'] as const;

/** A linked worktree's git directory and the repository's common one (`gitdir:` and its `commondir`), real. */
function worktreeGitDirs(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, '.git'), { encoding: 'utf8', flag: 'r' }).slice(0, 4096);
  } catch {
    return [];
  }
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match?.[1]) return [];
  const gitDir = realIfExists(resolve(root, match[1].trim()));
  if (gitDir === undefined || !isDirectory(gitDir)) return [];
  let common: string | undefined;
  try {
    common = realIfExists(resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()));
  } catch {
    common = undefined;
  }
  return common === undefined || common === gitDir ? [gitDir] : [gitDir, common];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function settingPath(path: string, projectRoot: string, home: string): string {
  const expanded = expandHome(path, home);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(projectRoot, expanded);
}

export interface PlannedLayout {
  writable: string[];
  readOnly: string[];
  placeholders: string[];
  hidden: string[];
}

export function planLayout(settings: SandboxSettings, places: LayoutPlaces): PlannedLayout {
  const { projectRoot, home } = places;
  const path = (entry: string): string => settingPath(entry, projectRoot, home);
  const writableRoots = [projectRoot, ...places.roots];
  const writable = [
    ...writableRoots,
    ...settings.allowWrite.map((entry) => realIfExists(path(entry))).filter((entry) => entry !== undefined),
  ];
  const readOnly: string[] = [];
  const placeholders: string[] = [];
  for (const root of writableRoots) {
    // A linked worktree's `.git` file points at its git directories elsewhere: writable, so `git add` and
    // `git commit` work, with their hooks and config read-only like the project's own.
    for (const gitDir of worktreeGitDirs(root)) {
      writable.push(gitDir);
      for (const control of ['hooks', 'config', 'config.worktree']) readOnly.push(join(gitDir, control));
    }
    const hasGit = isDirectory(join(root, '.git'));
    for (const control of CONTROL_FILES) {
      const full = join(root, control);
      if (realIfExists(full) !== undefined) readOnly.push(full);
      else if (!control.startsWith('.git/') || hasGit) placeholders.push(full);
    }
  }
  readOnly.push(...settings.denyWrite.map(path));
  const hidden = new Set<string>();
  for (const entry of [...credentialPlaces(home, places.mcaHome), ...settings.denyRead.map(path)]) {
    hidden.add(entry);
    const real = realIfExists(entry);
    if (real !== undefined) hidden.add(real);
  }
  return { writable: [...new Set(writable)], readOnly, placeholders, hidden: [...hidden] };
}
