/**
 * The start-up section measures dist/. It is rebuilt only when a source file is newer than the build, so a
 * `--quick` run right after a build does not spend most of its minute compiling.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuild(root: string, log: (line: string) => void): void {
  const mainJs = join(root, 'dist', 'cli', 'main.js');
  const sources = Math.max(newestMtime(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
  if (existsSync(mainJs) && statSync(mainJs).mtimeMs >= sources) return;
  log('build: dist/ is older than src/, running npm run build…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}
