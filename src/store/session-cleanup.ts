/**
 * Settings `cleanupPeriodDays` (Claude Code's meaning, default 30): sessions not written for that many days are
 * deleted from `$MCA_HOME/projects/*` with everything beside them named by their id (`<id>.jsonl`, `.checkpoints/`,
 * `.tools/`, `.agents/`, a stale `.lock`). Never the session of this process, nor one whose lock names a live
 * process. The scan runs at most once a day (the time of `$MCA_HOME/session-cleanup.stamp`), so a start usually costs one `stat`; the caller
 * starts it off the critical path and does not wait for it. Failures are ignored: clean-up is best effort.
 */
import { readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockIsLive } from './session-lock.js';

export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Beside `projects/`, not in it: whatever lists the project folders sees folders only. */
const MARKER = 'session-cleanup.stamp';
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export interface CleanupOptions {
  mcaHome: string;
  days: number;
  /** Session ids never removed (this process's). */
  keep: ReadonlySet<string>;
  now?: number;
}

/** Removes the old sessions; resolves with how many were removed (0 when the last scan was less than a day ago). */
export async function pruneOldSessions(options: CleanupOptions): Promise<number> {
  const now = options.now ?? Date.now();
  const projects = join(options.mcaHome, 'projects');
  const marker = join(options.mcaHome, MARKER);
  const last = await stat(marker).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
  if (last !== undefined && now - last < DAY_MS) return 0;
  let dirs: string[];
  try {
    dirs = await readdir(projects);
  } catch {
    return 0;
  }
  await writeFile(marker, '', { mode: 0o600 })
    .then(() => utimes(marker, now / 1000, now / 1000))
    .catch(() => undefined);
  const cutoff = now - options.days * DAY_MS;
  let removed = 0;
  for (const dir of dirs) {
    removed += await pruneDirectory(join(projects, dir), cutoff, options.keep);
  }
  return removed;
}

async function pruneDirectory(dir: string, cutoff: number, keep: ReadonlySet<string>): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const id = SESSION_FILE.exec(name)?.[1];
    if (id === undefined || keep.has(id)) continue;
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info === undefined || info.mtimeMs >= cutoff) continue;
    if (lockIsLive(join(dir, `${id}.lock`))) continue;
    const prefix = `${id}.`;
    // The session file last: a clean-up cut short leaves a session that is still listed, never orphans only.
    const beside = names.filter((other) => other.startsWith(prefix) && other !== name);
    await Promise.all(
      beside.map((other) => rm(join(dir, other), { recursive: true, force: true }).catch(() => undefined)),
    );
    await rm(join(dir, name), { force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}
