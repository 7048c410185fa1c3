/**
 * What restoring the files of a checkpoint would do: for every path changed at or after it, the state it had
 * then (the earliest change record from that time on), the state it has now, and whether someone other than mca
 * changed it since mca last did (a conflict: the state now differs from the last state mca left it in).
 */
import { captureFile } from './file-capture.js';
import type { BlobStore } from './blob-store.js';
import type { FileState, JournalRecord } from './journal.js';
import { resolveInProject } from '../tools/files/workspace.js';

export interface RestoreItem {
  path: string;
  target: FileState;
  current: FileState;
  conflict: boolean;
}

export interface RestorePlan {
  /** Files that will change (restorable ones). */
  items: RestoreItem[];
  /** Files that cannot be restored, with why. */
  notRestorable: Array<{ path: string; reason: string }>;
  /** Bash calls whose changes were not tracked. */
  untracked: string[];
}

/** Identical content and mode (or both absent). */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind;
  if (a.kind !== 'file' || b.kind !== 'file') return false;
  return a.hash === b.hash && a.mode === b.mode;
}

/**
 * `roots`: the added directories whose files may be restored (the journal's `root` records and the session's roots
 * now); a path resolves inside the project or one of them, symlinks included, or is listed as not restorable.
 */
export async function planRestore(
  projectRoot: string,
  roots: readonly string[],
  since: string,
  records: readonly JournalRecord[],
  blobs: BlobStore,
  maxBytes: number,
): Promise<RestorePlan> {
  const targets = new Map<string, FileState>();
  const lastAfter = new Map<string, FileState>();
  const untracked: string[] = [];
  for (const record of records) {
    if (record.t === 'change' && record.ts >= since && !targets.has(record.path))
      targets.set(record.path, record.before);
    if (record.t === 'after') lastAfter.set(record.path, record.after);
    if (record.t === 'untracked' && record.ts >= since) untracked.push(record.reason);
  }
  const plan: RestorePlan = { items: [], notRestorable: [], untracked };
  for (const [path, target] of [...targets.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (target.kind === 'unrestorable') {
      plan.notRestorable.push({ path, reason: target.reason });
      continue;
    }
    const resolved = resolveInProject(projectRoot, path, roots);
    if (!resolved.ok) {
      plan.notRestorable.push({ path, reason: resolved.error.message });
      continue;
    }
    const current = (await captureFile(resolved.absolute, blobs, maxBytes)).state;
    if (sameState(current, target)) continue;
    if (current.kind === 'unrestorable') {
      plan.notRestorable.push({ path, reason: `it is now ${current.reason}` });
      continue;
    }
    const left = lastAfter.get(path);
    const conflict = left !== undefined && left.kind !== 'unrestorable' && !sameState(left, current);
    plan.items.push({ path, target, current, conflict });
  }
  return plan;
}
