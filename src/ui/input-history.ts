/** Persisted prompt history for ↑/↓: one JSON string per line, newest last, capped. */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { redactSecrets } from '../text/redact-secrets.js';
import { HISTORY_CAP } from './input-state.js';

/** Reads the history file; a missing file or bad lines are skipped, never fatal. */
export async function loadInputHistory(path: string, cap = HISTORY_CAP): Promise<string[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'string' && entries.at(-1) !== value) entries.push(value);
    } catch {
      // A corrupt line (e.g. from a crash mid-write) is dropped.
    }
  }
  return entries.slice(-cap);
}

/**
 * Writes the whole (capped) history atomically, creating the directory if needed. Like every file under
 * MCA_HOME it is 0600 and never holds a key: each secret value (a pasted API key) is replaced with [REDACTED].
 */
export async function saveInputHistory(
  path: string,
  history: readonly string[],
  secrets: readonly string[] = [],
  cap = HISTORY_CAP,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const body = history
    .slice(-cap)
    .map((entry) => redactSecrets(JSON.stringify(entry), secrets))
    .join('\n');
  // A random, exclusively created temp name (never a planted link), renamed over the file.
  writeFileAtomic(path, body ? `${body}\n` : '', { mode: 0o600 });
}
