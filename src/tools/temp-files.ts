/**
 * mca's own temp files (`.<name>.mca-<pid>-<hex>.tmp`, written beside a file being replaced). A process killed
 * between writing one and renaming it (kill -9, power loss) leaves it behind; it is removed by the next write of
 * the same file and by the sweep at start-up, but only when its writer is gone (a live writer's are left alone).
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

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

/** Directories the sweep never enters: dependencies and VCS data, where mca writes no files of its own. */
const SWEEP_SKIPPED = new Set(['node_modules', '.git']);
const SWEEP_MAX_DEPTH = 32;
/** Directories listed at once; `signal` is checked between batches, so a stop waits for at most one batch. */
const SWEEP_BATCH = 64;

/**
 * Start-up sweep: removes every stale mca temp file in the project (dependency and VCS directories skipped,
 * symlinks not followed, unreadable directories passed over). Returns how many were removed. A plain walk, one
 * level at a time: it runs on every start, and a glob library would cost more to load than the walk of most
 * projects takes. `signal` stops it between batches of directories (a partial sweep is harmless: the next write of a file also
 * removes that file's stale temps, and the next start sweeps again).
 */
export async function sweepStaleTemps(projectRoot: string, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  let level = [projectRoot];
  for (let depth = 0; depth <= SWEEP_MAX_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (let start = 0; start < level.length; start += SWEEP_BATCH) {
      if (signal?.aborted === true) return removed;
      const listed = await Promise.all(
        level.slice(start, start + SWEEP_BATCH).map((dir) =>
          readdir(dir, { withFileTypes: true }).then(
            (entries) => ({ dir, entries }),
            () => ({ dir, entries: [] }),
          ),
        ),
      );
      for (const { dir, entries } of listed) {
        for (const entry of entries) {
          if (entry.isDirectory()) {
            if (!SWEEP_SKIPPED.has(entry.name)) next.push(join(dir, entry.name));
          } else if (entry.isFile() && isStaleTemp(entry.name)) {
            await unlink(join(dir, entry.name)).then(
              () => (removed += 1),
              () => undefined,
            );
          }
        }
      }
    }
    level = next;
  }
  return removed;
}
