/**
 * Tool memory (spec 002 v3; DESIGN.md "Tool memory and archive"): every full tool result, kept by a short
 * reference outside the conversation, so history can carry the reference instead of the detail and `Recall`
 * can bring it back. References are content hashes: the same output stored twice is one entry with one ref.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';

/** `r` + 12 hex digits of the content's SHA-256: short enough for history, long enough never to collide here. */
export const TOOL_REF_PATTERN = /^r[0-9a-f]{12}$/;

export function toolRefOf(text: string): string {
  return `r${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

export interface ToolMemory {
  /** Stores a full result and returns its reference; undefined when it could not be stored (never throws). */
  store(text: string): string | undefined;
  /** The stored text of a reference, or undefined for an unknown or malformed one (never throws). */
  recall(ref: string): string | undefined;
}

/** Tests and the bench: the same contract, held in memory. */
export class InMemoryToolMemory implements ToolMemory {
  private readonly entries = new Map<string, string>();

  store(text: string): string {
    const ref = toolRefOf(text);
    this.entries.set(ref, text);
    return ref;
  }

  recall(ref: string): string | undefined {
    return this.entries.get(ref);
  }
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * One directory per session (beside its session file), one file per reference. `-c`/`--resume` reopen the same
 * session id and so the same directory: references in a continued history still resolve.
 */
export class DirectoryToolMemory implements ToolMemory {
  /** `redact` runs over every text before it is written (credentials never reach the disk). */
  constructor(
    readonly dir: string,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  store(full: string): string | undefined {
    const text = this.redact(full);
    const ref = toolRefOf(text);
    try {
      if (!existsSync(this.dir)) {
        mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
        chmodSync(this.dir, DIR_MODE);
      }
      const file = join(this.dir, `${ref}.txt`);
      // Same content, same file: a second write is skipped (content-deduplicated).
      // Written through a random exclusive temp file and a rename: a link planted at the name is replaced, not followed.
      // Not flushed to the disk (an fsync cost 1-7 ms per tool step on a busy machine): recall checks the hash, so
      // a file a crash left empty or partial reads as an unknown reference, never as another result.
      if (!existsSync(file)) writeFileAtomic(file, text, { mode: FILE_MODE, durable: false });
      return ref;
    } catch {
      return undefined;
    }
  }

  recall(ref: string): string | undefined {
    // The pattern also keeps a model-written ref from naming any other path.
    if (!TOOL_REF_PATTERN.test(ref)) return undefined;
    try {
      const text = readFileSync(join(this.dir, `${ref}.txt`), 'utf8');
      return toolRefOf(text) === ref ? text : undefined;
    } catch {
      return undefined;
    }
  }
}
