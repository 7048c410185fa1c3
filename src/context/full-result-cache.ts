/**
 * The process's copy of full tool results by reference (issue 42, long sessions): least recently used first out,
 * bounded by the characters it holds. It is only a copy: every full result also lives in tool memory on disk (the
 * session's `<id>.tools/` directory), so an evicted reference is read back from there when a build or a compaction
 * needs it again, and Recall reads tool memory itself. A long session so keeps at most `maxChars` of results in
 * memory, however much its tools printed.
 */

/** 4 M characters (8 MB at most in V8's two-byte strings): the newest results of a busy session, read once each. */
export const DEFAULT_FULL_RESULT_CACHE_CHARS = 4_000_000;

/** What an "unknown reference" mark costs in the bound, so that a flood of unknown refs is bounded too. */
const UNKNOWN_CHARS = 64;

function sizeOf(value: string | null): number {
  return value === null ? UNKNOWN_CHARS : value.length;
}

export class FullResultCache {
  /** Insertion order is recency: a hit moves its entry to the end, eviction takes from the front. */
  private readonly entries = new Map<string, string | null>();
  private heldChars = 0;

  constructor(private readonly maxChars = DEFAULT_FULL_RESULT_CACHE_CHARS) {}

  /** The cached text, null for a reference known to be unknown, undefined when not cached (or evicted). */
  get(ref: string): string | null | undefined {
    const value = this.entries.get(ref);
    if (value === undefined) return undefined;
    this.entries.delete(ref);
    this.entries.set(ref, value);
    return value;
  }

  /** Keeps `value` as the newest entry; a text larger than the whole bound is not kept (tool memory has it). */
  set(ref: string, value: string | null): void {
    const old = this.entries.get(ref);
    if (old !== undefined) {
      this.entries.delete(ref);
      this.heldChars -= sizeOf(old);
    }
    const size = sizeOf(value);
    if (size > this.maxChars) return;
    this.entries.set(ref, value);
    this.heldChars += size;
    for (const [oldest, text] of this.entries) {
      if (this.heldChars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.heldChars -= sizeOf(text);
    }
  }

  /** Drops `ref`'s copy (tool memory still has the text; the next `get` says undefined). */
  delete(ref: string): void {
    const old = this.entries.get(ref);
    if (old === undefined) return;
    this.entries.delete(ref);
    this.heldChars -= sizeOf(old);
  }

  /** Characters held now (tests and the bench). */
  get chars(): number {
    return this.heldChars;
  }
}
