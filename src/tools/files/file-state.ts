import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';

/** What mca last saw of a file: enough to notice an outside change. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  /**
   * sha256 of the text mca last saw or wrote, when it had the whole text in hand. A file whose mtime or size moved
   * but whose text hashes the same did not change for the agent (an editor saved the buffer mca wrote through it).
   */
  hash?: string;
}

/** The content hash of FileStamp.hash. */
export function contentHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function stampOf(absolutePath: string): Promise<FileStamp | undefined> {
  try {
    const info = await stat(absolutePath);
    return { mtimeMs: info.mtimeMs, size: info.size };
  } catch {
    return undefined;
  }
}

/**
 * Per-session, in-memory record of files the agent has read or written (spec A8/C4: never persisted).
 * Read records a stamp; Write/Edit/MultiEdit require one for existing files and refuse if the file changed
 * since; the agent's own writes refresh the stamp so its next Read carries no "modified externally" note.
 */
export class FileStateRecord {
  private readonly stamps = new Map<string, FileStamp>();

  get(absolutePath: string): FileStamp | undefined {
    return this.stamps.get(absolutePath);
  }

  has(absolutePath: string): boolean {
    return this.stamps.has(absolutePath);
  }

  record(absolutePath: string, stamp: FileStamp): void {
    this.stamps.set(absolutePath, stamp);
  }

  /** True when the file on disk differs from what the agent last saw. Unknown files are not stale. */
  changedSince(absolutePath: string, current: FileStamp): boolean {
    const known = this.stamps.get(absolutePath);
    return known !== undefined && (known.mtimeMs !== current.mtimeMs || known.size !== current.size);
  }

  clear(): void {
    this.stamps.clear();
  }

  /** Every file the agent has read or written, in the order first seen (memory files of their directories). */
  paths(): string[] {
    return [...this.stamps.keys()];
  }
}

export interface WriteGuardError {
  code: 'CONFLICT';
  message: string;
}

/**
 * The rule for changing an existing file: the agent must have Read it in this session and it must not have
 * changed on disk since (mtime or size). Returns undefined when the write may go ahead; new files always may.
 */
export function checkWriteAllowed(
  record: FileStateRecord,
  absolutePath: string,
  relativePath: string,
  current: FileStamp | undefined,
): WriteGuardError | undefined {
  if (current === undefined) return undefined;
  if (!record.has(absolutePath)) {
    return {
      code: 'CONFLICT',
      message: `${relativePath} already exists and has not been read in this session. Read it first, then retry.`,
    };
  }
  if (record.changedSince(absolutePath, current)) {
    return {
      code: 'CONFLICT',
      message: `${relativePath} was modified externally since you last read it. Read it again, then retry with the current content.`,
    };
  }
  return undefined;
}
