/**
 * Pruning a session's store: the newest `keep` checkpoints within `days` stay restorable; older change records
 * go, then every blob nothing kept refers to. Kept regardless: the last state mca left each file in (conflict
 * checks need it) and the last scan (the next Bash call's cache refers to its blobs).
 */
import type { BlobStore } from './blob-store.js';
import type { Checkpoint } from './checkpoint-list.js';
import { decodeImage } from './image-codec.js';
import type { Journal, JournalRecord } from './journal.js';
import type { PruneLimits } from './limits.js';

export { DEFAULT_PRUNE, type PruneLimits } from './limits.js';

function hashesOf(record: JournalRecord): string[] {
  if (record.t === 'change') return record.before.kind === 'file' ? [record.before.hash] : [];
  if (record.t === 'after') return record.after.kind === 'file' ? [record.after.hash] : [];
  if (record.t === 'bash-start') return [record.image];
  if (record.t === 'rewind') return record.session ? [record.session] : [];
  return [];
}

/** The oldest time still restorable, or undefined when nothing is to be pruned. */
export function pruneCutoff(
  checkpoints: readonly Checkpoint[],
  limits: PruneLimits,
  now = Date.now(),
): string | undefined {
  const byAge = new Date(now - limits.days * 24 * 60 * 60 * 1000).toISOString();
  const newest = checkpoints.slice(-limits.keep);
  const byCount = checkpoints.length > limits.keep ? newest[0]?.ts : undefined;
  const cutoff = byCount !== undefined && byCount > byAge ? byCount : byAge;
  return checkpoints.some((checkpoint) => checkpoint.ts < cutoff) ? cutoff : undefined;
}

/** Drops what is older than `cutoff`; answers the bytes freed. */
export async function prune(journal: Journal, blobs: BlobStore, cutoff: string): Promise<number> {
  const records = await journal.read();
  const lastAfter = new Map<string, number>();
  let lastStart = -1;
  records.forEach((record, index) => {
    if (record.t === 'after') lastAfter.set(record.path, index);
    if (record.t === 'bash-start') lastStart = index;
  });
  const kept = records.filter(
    (record, index) =>
      record.ts >= cutoff ||
      index === lastStart ||
      record.t === 'root' ||
      (record.t === 'after' && lastAfter.get(record.path) === index),
  );
  if (kept.length === records.length) return 0;
  const keep = new Set(kept.flatMap(hashesOf));
  const last = records[lastStart];
  if (last?.t === 'bash-start') {
    const image = await blobs.get(last.image);
    if (image) {
      try {
        // The last scan is its base image with its delta applied: an entry the delta replaced keeps nothing.
        const base = (decodeImage(image) ?? {}) as Record<string, { state?: { hash?: unknown } }>;
        const entries = { ...base, ...(last.delta?.set as typeof base | undefined) };
        for (const path of last.delta?.del ?? []) delete entries[path];
        for (const entry of Object.values(entries)) {
          if (typeof entry.state?.hash === 'string') keep.add(entry.state.hash);
        }
      } catch {
        // an unreadable image: its files are re-read by the next scan
      }
    }
  }
  await journal.rewrite(kept);
  return await blobs.sweep(keep);
}
