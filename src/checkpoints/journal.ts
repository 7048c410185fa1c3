/**
 * A session's checkpoint journal: `journal.jsonl` in its checkpoint directory, one record per line, each line
 * fsync'd before the change it describes runs. Records:
 *   change      a file's state before a tool changed it (the earliest one per path after a prompt started wins)
 *   after       the state a tool left the file in (a later difference is someone else's edit: a conflict)
 *   bash-start  a Bash call is about to run; `image` is the blob of the scan taken before it (path → state), or of
 *               an earlier scan that `delta` changes into it
 *   bash-end    that call finished and its changes were recorded (missing after a crash: recovered on open)
 *   rewind      a rewind happened; its own changes follow it, so it can be undone like a prompt
 *   untracked   a Bash call whose changes could not be tracked (a project over the file limit)
 *   root        an added directory (real path) whose files are journalled by absolute path: a rewind restores
 *               files only inside the project and the roots recorded here (kept by pruning)
 */
import { open } from 'node:fs/promises';
import { STORE_FILE_MODE, writeDurably } from './blob-store.js';

export type FileState =
  | { kind: 'file'; hash: string; mode: number; size: number }
  | { kind: 'absent' }
  | { kind: 'unrestorable'; reason: string };

/** Scan entries (project-scan.ts ImageEntry, by path) put on, and paths removed from, a base scan. */
export interface ImageDelta {
  set: Record<string, { stat: unknown; state: unknown }>;
  del: string[];
}

export type JournalRecord =
  | { t: 'change'; ts: string; path: string; before: FileState; tool: string; callId?: string }
  | { t: 'after'; ts: string; path: string; after: FileState }
  | {
      t: 'bash-start';
      ts: string;
      callId: string;
      image: string;
      /** The added directories the scan covered (recovery scans the same ones). */
      roots?: string[];
      /** The scan is `image` with these entries changed (image-delta.ts); absent: `image` is the scan. */
      delta?: ImageDelta;
    }
  | { t: 'bash-end'; ts: string; callId: string; recovered?: boolean }
  | {
      t: 'rewind';
      ts: string;
      id: string;
      target: string;
      /** The session file before a conversation rewind cut it (blob), so the rewind can be undone. */
      session?: string;
      /** A conversation rewind dropped the prompts from this time on (their changes belong to no listed prompt). */
      cutFrom?: string;
    }
  | { t: 'untracked'; ts: string; callId: string; reason: string }
  | { t: 'root'; ts: string; root: string };

/** At most this many bytes of journal are read (a hostile or runaway journal cannot exhaust memory). */
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

function isRecord(value: unknown): value is JournalRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as { t?: unknown; ts?: unknown };
  return typeof record.t === 'string' && typeof record.ts === 'string';
}

export class Journal {
  constructor(readonly path: string) {}

  /** Appends records as whole lines and fsyncs them. */
  async append(...records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    const handle = await open(this.path, 'a', STORE_FILE_MODE);
    try {
      await handle.appendFile(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Every readable record, in order; a torn last line (a crash mid-append) and unreadable lines are skipped. */
  async read(): Promise<JournalRecord[]> {
    let text: string;
    try {
      const handle = await open(this.path, 'r');
      try {
        const { size } = await handle.stat();
        const buffer = Buffer.alloc(Math.min(size, MAX_JOURNAL_BYTES));
        await handle.read(buffer, 0, buffer.length, Math.max(0, size - buffer.length));
        text = buffer.toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return [];
    }
    const records: JournalRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value: unknown = JSON.parse(line);
        if (isRecord(value)) records.push(value);
      } catch {
        // a torn or damaged line
      }
    }
    return records;
  }

  /** Replaces the journal with `records` (pruning), atomically. */
  async rewrite(records: readonly JournalRecord[]): Promise<void> {
    await writeDurably(this.path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  }
}
