/**
 * The prompts of a session file, each with where it first appears (the byte offset of its record), so a
 * conversation rewind can cut the file back to before it. A prompt first seen inside a compaction snapshot is
 * cut by cutting before the snapshot and writing the snapshot's messages before the prompt again.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Message } from '../context/message.js';
import { promptLabel } from '../text/user-words.js';
import { isMessage } from '../store/session-records.js';

export interface SessionPrompt {
  /** The checkpoint id: 8 hex characters derived from the message's round and time. */
  id: string;
  ts: string;
  round: number;
  content: string;
  /** Byte offset of the record the prompt first appears in. */
  offset: number;
  /** Set when that record is a snapshot: the messages before the prompt in it. */
  snapshotPrefix?: Message[];
}

/** A session file larger than this is not read for rewinding. */
const MAX_SESSION_BYTES = 512 * 1024 * 1024;

export function promptId(round: number, ts: string): string {
  return createHash('sha256').update(`${round}|${ts}`).digest('hex').slice(0, 8);
}

/**
 * The user's text of a stored prompt: without the `<system-reminder>` blocks mca appended to it or the shell notes
 * it carried (a prompt that held only those is shown as its `! command`).
 */
export function promptText(content: string): string {
  return promptLabel(content);
}

export async function readSessionPrompts(path: string): Promise<SessionPrompt[]> {
  const bytes = await readFile(path);
  if (bytes.length > MAX_SESSION_BYTES) throw new Error(`${path} is over ${MAX_SESSION_BYTES} bytes`);
  const prompts = new Map<string, SessionPrompt>();
  let offset = 0;
  while (offset < bytes.length) {
    let end = bytes.indexOf(0x0a, offset);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(offset, end).toString('utf8');
    collect(line, offset, prompts);
    offset = end + 1;
  }
  return [...prompts.values()];
}

function collect(line: string, offset: number, prompts: Map<string, SessionPrompt>): void {
  if (!line.includes('"user"')) return;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return;
  }
  const record = value as { type?: unknown; message?: unknown; messages?: unknown };
  const add = (message: Message, prefix?: Message[]): void => {
    const id = promptId(message.metadata.round, message.metadata.ts);
    if (prompts.has(id)) return;
    prompts.set(id, {
      id,
      ts: message.metadata.ts,
      round: message.metadata.round,
      content: message.content,
      offset,
      ...(prefix ? { snapshotPrefix: prefix } : {}),
    });
  };
  if (record.type === 'message' && isMessage(record.message) && record.message.role === 'user') add(record.message);
  if (record.type === 'snapshot' && Array.isArray(record.messages)) {
    const messages = record.messages.filter(isMessage);
    messages.forEach((message, index) => {
      if (message.role === 'user') add(message, messages.slice(0, index));
    });
  }
}
