/** Small path and content checks of the watched scan (watched-scan.ts). */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, type Stats } from 'node:fs';
import { gitBlobId, type ScanState } from './git-blobs.js';

/** lstat without following the last component; undefined when absent or a parent is no directory. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR: a parent became a file
  }
}

export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash === -1 ? '' : rel.slice(0, slash);
}

/** True when the file's bytes are still those `state` holds (a racy file's check). */
export function stillSame(absolute: string, state: ScanState): boolean {
  if (state.kind !== 'file' && state.kind !== 'git') return false;
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch {
    return false;
  }
  if (state.kind === 'git') return gitBlobId(bytes, state.blob.length) === state.blob;
  return createHash('sha256').update(bytes).digest('hex') === state.hash;
}
