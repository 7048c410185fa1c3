/**
 * mca's own temp files (`.<name>.mca-<pid>-<hex>.tmp`, written beside a file being replaced). A process killed
 * between writing one and renaming it (kill -9, power loss) leaves it behind; it is removed by the next write of
 * the same file and by the sweep at start-up, but only when its writer is gone (a live writer's are left alone).
 */
import { readdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadFastGlob } from './lazy-modules.js';

const TEMP_NAME = /^\..+\.mca-(\d+)-[0-9a-f]+\.tmp$/;

export function tempNameFor(name: string, unique: string): string {
  return `.${name}.mca-${process.pid}-${unique}.tmp`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True for a temp file of mca whose writer process no longer exists. */
export function isStaleTemp(entry: string): boolean {
  const pid = Number(TEMP_NAME.exec(entry)?.[1]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid);
}

/** Removes stale temps of `name` in `dir`; `name` undefined removes every stale mca temp there. */
export async function removeStaleTemps(dir: string, name?: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (name !== undefined && !entry.startsWith(`.${name}.mca-`)) continue;
    if (!isStaleTemp(entry)) continue;
    await unlink(join(dir, entry)).then(
      () => (removed += 1),
      () => undefined,
    );
  }
  return removed;
}

/**
 * Start-up sweep: removes every stale mca temp file in the project (dependency and VCS directories skipped,
 * symlinks not followed). Returns how many were removed.
 */
export async function sweepStaleTemps(projectRoot: string): Promise<number> {
  const fastGlob = await loadFastGlob();
  const found = await fastGlob('**/.*.mca-*.tmp', {
    cwd: projectRoot,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    deep: 32,
    ignore: ['**/node_modules/**', '**/.git/**'],
  });
  let removed = 0;
  for (const relativePath of found) {
    if (!isStaleTemp(basename(relativePath))) continue;
    await unlink(join(projectRoot, relativePath)).then(
      () => (removed += 1),
      () => undefined,
    );
  }
  return removed;
}
