/**
 * A session's checkpoints: one per prompt of its session file, plus one per rewind (so a rewind can be undone),
 * newest last. A change record belongs to the newest checkpoint written before it; changes of prompts a
 * conversation rewind dropped belong to none.
 */
import type { JournalRecord } from './journal.js';
import { promptText, type SessionPrompt } from './session-prompts.js';

export interface Checkpoint {
  id: string;
  ts: string;
  kind: 'prompt' | 'rewind';
  /** The prompt's text (without mca's reminders), or what the rewind went back to. */
  text: string;
  /** Project-relative paths changed while this checkpoint was the newest. */
  files: string[];
  prompt?: SessionPrompt;
  /** Rewinds: the session file before the rewind (blob hash). */
  sessionBlob?: string;
}

export const CHECKPOINT_ID = /^[0-9a-f]{8}$/;

export function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

export function listCheckpoints(prompts: readonly SessionPrompt[], records: readonly JournalRecord[]): Checkpoint[] {
  const checkpoints: Checkpoint[] = prompts.map((prompt) => ({
    id: prompt.id,
    ts: prompt.ts,
    kind: 'prompt',
    text: promptText(prompt.content),
    files: [],
    prompt,
  }));
  const gaps: Array<{ from: string; to: string }> = [];
  for (const record of records) {
    if (record.t !== 'rewind') continue;
    checkpoints.push({
      id: record.id,
      ts: record.ts,
      kind: 'rewind',
      text: `(rewind to ${record.target})`,
      files: [],
      ...(record.session ? { sessionBlob: record.session } : {}),
    });
    if (record.cutFrom !== undefined) gaps.push({ from: record.cutFrom, to: record.ts });
  }
  checkpoints.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  const files = checkpoints.map(() => new Set<string>());
  for (const record of records) {
    if (record.t !== 'change') continue;
    if (gaps.some((gap) => record.ts >= gap.from && record.ts < gap.to)) continue;
    let owner = -1;
    for (let index = 0; index < checkpoints.length; index += 1) {
      if ((checkpoints[index]?.ts ?? '') <= record.ts) owner = index;
    }
    if (owner >= 0) files[owner]?.add(record.path);
  }
  return checkpoints.map((checkpoint, index) => ({ ...checkpoint, files: [...(files[index] ?? [])].sort() }));
}
