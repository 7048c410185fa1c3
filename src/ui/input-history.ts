/** Persisted prompt history for ↑/↓: one JSON string per line, newest last, capped. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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

/** Writes the whole (capped) history atomically, creating the directory if needed. */
export async function saveInputHistory(path: string, history: readonly string[], cap = HISTORY_CAP): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const body = history
    .slice(-cap)
    .map((entry) => JSON.stringify(entry))
    .join('\n');
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, body ? `${body}\n` : '', 'utf8');
  await rename(temp, path);
}
