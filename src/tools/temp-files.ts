/**
 * mca's own temp files (`.<name>.mca-<pid>-<hex>.tmp`, written beside a file being replaced). A process killed
 * between writing one and renaming it (kill -9, power loss) leaves it behind; it is removed by the next write of
 * the same file and by the start-up sweep of the temp journals (temp-journal.ts), but only when its writer is gone
 * (a live writer's are left alone).
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const TEMP_NAME = /^\..+\.mca-(\d+)-[0-9a-f]+\.tmp$/;

export function tempNameFor(name: string, unique: string): string {
  return `.${name}.mca-${process.pid}-${unique}.tmp`;
}

/** Whether a process with this pid exists (one we may not signal exists too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the process that wrote an mca temp file of this name, or undefined for any other name. */
export function tempWriterPid(entry: string): number | undefined {
  const pid = Number(TEMP_NAME.exec(entry)?.[1]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** True for a temp file of mca whose writer process no longer exists. */
export function isStaleTemp(entry: string): boolean {
  const pid = tempWriterPid(entry);
  return pid !== undefined && pid !== process.pid && !processAlive(pid);
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
