/**
 * A Bash call's scan is journalled (for crash recovery and as the next process's cache) as the blob of a base
 * scan plus the entries that differ from it, inline in the `bash-start` record, instead of the whole scan
 * serialised, gzipped and written again: with 10,000 files that is 2 MB of JSON per call. Once the difference
 * grows past MAX_DELTA_ENTRIES the scan is stored whole and becomes the next base.
 */
import type { ImageDelta } from './journal.js';
import type { Image, ImageEntry } from './project-scan.js';

export const MAX_DELTA_ENTRIES = 256;

/** `now` as entries set and removed against `base`; undefined when that is more than MAX_DELTA_ENTRIES. */
export function imageDelta(base: Image, now: Image): ImageDelta | undefined {
  const set: Record<string, ImageEntry> = {};
  const del: string[] = [];
  let count = 0;
  // Entries a scan did not change are the same objects as the base's (project-scan.ts reuses them).
  for (const [path, entry] of Object.entries(now)) {
    if (base[path] === entry) continue;
    set[path] = entry;
    count += 1;
    if (count > MAX_DELTA_ENTRIES) return undefined;
  }
  for (const path of Object.keys(base)) {
    if (path in now) continue;
    del.push(path);
    count += 1;
    if (count > MAX_DELTA_ENTRIES) return undefined;
  }
  return { set, del };
}

/** The scan `delta` describes against `base`. */
export function applyDelta(base: Image, delta: ImageDelta | undefined): Image {
  if (!delta) return base;
  const image: Image = { ...base, ...(delta.set as Image) };
  for (const path of delta.del) delete image[path];
  return image;
}
