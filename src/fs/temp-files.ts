/**
 * mca's own temp files (`.<name>.mca-<writer>-<hex>.tmp`, written beside a file being replaced; the writer is its
 * process stamp, process-liveness.ts). A process killed between writing one and renaming it (kill -9, power loss)
 * leaves it behind; it is removed by the next write of the same file and by the start-up sweep of the temp
 * journals (temp-journal.ts), but only when its writer is gone (a live writer's are left alone; a process that
 * merely got the same pid again is not the writer).
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parseStampToken, stampAlive, stampToken, type ProcessStamp } from './process-liveness.js';

const TEMP_NAME = /^\..+\.mca-(\d+(?:_\d+)?)-[0-9a-f]+\.tmp$/;

export function tempNameFor(name: string, unique: string): string {
  return `.${name}.mca-${stampToken()}-${unique}.tmp`;
}

/** The process that wrote an mca temp file of this name, or undefined for any other name. */
export function tempWriter(entry: string): ProcessStamp | undefined {
  return parseStampToken(TEMP_NAME.exec(entry)?.[1]);
}

/** True for a temp file of mca whose writer process no longer runs. */
export function isStaleTemp(entry: string): boolean {
  const writer = tempWriter(entry);
  return writer !== undefined && !stampAlive(writer);
}

/** Removes stale temps of `name` in `dir`; `name` undefined removes every stale mca temp there. */
export function removeStaleTemps(dir: string, name?: string): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (name !== undefined && !entry.startsWith(`.${name}.mca-`)) continue;
    if (!isStaleTemp(entry)) continue;
    try {
      unlinkSync(join(dir, entry));
      removed += 1;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}
