/** A throwaway project directory and MCA_HOME for one test, removed when the test finishes. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

export interface TempProject {
  root: string;
  home: string;
}

export function tempProject(prefix: string, files: Record<string, string> = {}): TempProject {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, home };
}

/** Writes `value` as JSON at `path`, making its directories (a settings file, a config). */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

/** A temp project with a user home beside it (HOME for `~/.claude/settings.json`), made empty. */
export function tempProjectWithUserHome(prefix: string): TempProject & { userHome: string } {
  const project = tempProject(prefix);
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  return { ...project, userHome };
}
