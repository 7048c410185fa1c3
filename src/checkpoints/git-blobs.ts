/**
 * A scan entry of a clean tracked file holds no copy, only its git blob id (see git-files.ts). When a command
 * changed such a file, the after-step turns that reference into a stored copy at once (`git cat-file --batch`,
 * read-only), so every journalled change record holds a blob of mca's own store, as before. The window in which a
 * reference alone stands for the content is the command itself (or, after a crash, until the next open recovers
 * it): only a command that rewrites history and prunes git's objects right away (`git gc --prune=now`) within that
 * window can lose one, and then the file is listed as not restorable instead of being restored wrongly (the bytes
 * git answers are checked against the blob id too).
 */
import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store.js';
import { runGit } from './git-run.js';
import type { FileState } from './journal.js';

/** A scan's reference to a clean tracked file: its index blob (bytes verified equal) and its mode on disk. */
export interface GitBlobState {
  kind: 'git';
  blob: string;
  mode: number;
  size: number;
  /** An added directory's file: git is asked in this root, not in the project. */
  root?: string;
}

export type ScanState = FileState | GitBlobState;

const BATCH_BYTES = 64 * 1024 * 1024;

/** The id git gives `bytes` as a blob (SHA-1, or SHA-256 in a repository that uses it: 64 hex digits). */
export function gitBlobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

/** Git's answer for the blobs asked, id → bytes; ids git lacks are absent. Bounded by `maxBytes` in all. */
export async function readGitBlobs(
  projectRoot: string,
  ids: readonly string[],
  maxBytes: number,
  deadlineMs: number,
): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return found;
  const answer = await runGit(['cat-file', '--batch'], {
    cwd: projectRoot,
    input: `${unique.join('\n')}\n`,
    maxBytes: maxBytes + unique.length * 100,
    deadlineMs,
  });
  if (!answer.ok) return found;
  const out = answer.stdout;
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    if (end === -1) break;
    const [id = '', type = '', sizeText = ''] = out.subarray(at, end).toString('utf8').split(' ');
    at = end + 1;
    if (type === 'missing' || sizeText === '') continue;
    const size = Number(sizeText);
    if (!Number.isSafeInteger(size) || at + size > out.length) break;
    const bytes = out.subarray(at, at + size);
    // git does not check a loose object's hash when it reads it: a damaged or planted object is not trusted.
    if (type === 'blob' && gitBlobId(bytes, id.length) === id) found.set(id, bytes);
    at += size + 1;
  }
  return found;
}

/**
 * The states with every git reference replaced by a stored copy (durable when this resolves), or by "not
 * restorable" when git no longer has the blob or it holds a key mca uses.
 */
export async function materialize(
  projectRoot: string,
  states: readonly ScanState[],
  blobs: BlobStore,
  deadlineMs: number,
): Promise<FileState[]> {
  const all = states.filter((state): state is GitBlobState => state.kind === 'git');
  const stored = new Map<string, FileState>();
  // Grouped by the root git runs in (the project's references, then each added directory's).
  for (const root of new Set(all.map((ref) => ref.root ?? projectRoot))) {
    const refs = all.filter((ref) => (ref.root ?? projectRoot) === root);
    await copyRefs(root, refs, blobs, stored, deadlineMs);
  }
  await blobs.flush();
  return states.map((state): FileState => {
    if (state.kind !== 'git') return state;
    const copy = stored.get(state.blob) ?? { kind: 'unrestorable', reason: 'its git object is gone' };
    return copy.kind === 'file' ? { ...copy, mode: state.mode } : copy;
  });
}

/** Copies the blobs of `refs` from the repository of `root` into `blobs`, answering each in `stored`. */
async function copyRefs(
  root: string,
  refs: readonly GitBlobState[],
  blobs: BlobStore,
  stored: Map<string, FileState>,
  deadlineMs: number,
): Promise<void> {
  // In batches of at most BATCH_BYTES of content: a `git checkout` that changed thousands of files is not held in
  // memory at once.
  for (let start = 0; start < refs.length;) {
    const batch: GitBlobState[] = [];
    let budget = 0;
    while (start < refs.length && (batch.length === 0 || budget + (refs[start]?.size ?? 0) <= BATCH_BYTES)) {
      const ref = refs[start];
      start += 1;
      if (!ref || stored.has(ref.blob)) continue;
      batch.push(ref);
      budget += ref.size;
    }
    const bytesOf = await readGitBlobs(
      root,
      batch.map((ref) => ref.blob),
      budget,
      deadlineMs,
    );
    for (const ref of batch) {
      const bytes = bytesOf.get(ref.blob);
      if (!bytes)
        stored.set(ref.blob, { kind: 'unrestorable', reason: 'its git object is gone or damaged (pruned by git?)' });
      else if (blobs.holdsSecret(bytes)) {
        stored.set(ref.blob, { kind: 'unrestorable', reason: 'it holds an API key mca uses (never copied)' });
      } else stored.set(ref.blob, { kind: 'file', hash: await blobs.put(bytes, true), mode: 0, size: bytes.length });
    }
  }
}
