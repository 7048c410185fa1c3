/**
 * Which projects the user trusts: `$MCA_HOME/trusted-projects.json` (mode 0600), keyed by the project's real
 * path. Until a project is trusted its files may only narrow what mca does (DESIGN.md "Trust boundaries"): its
 * allow rules and the executables it supplies are ignored. A "no" is stored too, so the REPL asks only once.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { McaError } from '../errors/mca-error.js';
import { AtomicWriteError, writeFileAtomic } from '../fs/atomic-write.js';

export const TRUST_FILE = 'trusted-projects.json';
const TRUST_MAX_BYTES = 4 * 1024 * 1024;

export type TrustChoice = 'trusted' | 'untrusted' | 'unknown';

interface TrustRecord {
  trusted: boolean;
  at: string;
}

export class TrustStoreError extends McaError {
  readonly code = 'TRUST_STORE_UNWRITABLE' as const;
}

function readRecords(mcaHome: string): Record<string, TrustRecord> {
  const read = readBoundedFile(join(mcaHome, TRUST_FILE), { maxBytes: TRUST_MAX_BYTES });
  if (!read.ok) return {};
  try {
    const parsed: unknown = JSON.parse(read.text);
    const projects = (parsed as { projects?: unknown } | null)?.projects;
    if (projects === null || typeof projects !== 'object' || Array.isArray(projects)) return {};
    const records: Record<string, TrustRecord> = {};
    for (const [path, value] of Object.entries(projects as Record<string, unknown>)) {
      const trusted = (value as { trusted?: unknown } | null)?.trusted;
      if (typeof trusted === 'boolean') records[path] = { trusted, at: String((value as { at?: unknown }).at ?? '') };
    }
    return records;
  } catch {
    return {};
  }
}

export function trustChoice(mcaHome: string, projectRoot: string): TrustChoice {
  const record = readRecords(mcaHome)[projectRoot];
  if (!record) return 'unknown';
  return record.trusted ? 'trusted' : 'untrusted';
}

/** Stores the user's choice for `projectRoot` (a real path). Throws TrustStoreError with the path on failure. */
export function recordTrust(mcaHome: string, projectRoot: string, trusted: boolean): void {
  const file = join(mcaHome, TRUST_FILE);
  const records = readRecords(mcaHome);
  records[projectRoot] = { trusted, at: new Date().toISOString() };
  try {
    mkdirSync(mcaHome, { recursive: true, mode: 0o700 });
    // A random, exclusively created temp name: nothing planted beside the file is ever followed.
    writeFileAtomic(file, `${JSON.stringify({ version: 1, projects: records }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new TrustStoreError(
      error instanceof AtomicWriteError
        ? error.message
        : `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}
