/**
 * The JSONL session format, one record per line:
 *   {type:'meta', version:1, sessionId, projectRoot, createdAt, model}   first line
 *   {type:'message', message}                                          every appended Message
 *   {type:'snapshot', messages, ts}                                    after a compaction
 * The history is the last snapshot's messages plus the messages appended after it.
 */
import type { Message, Role } from '../context/message.js';

export const SESSION_FORMAT_VERSION = 1;

export interface MetaRecord {
  type: 'meta';
  version: number;
  sessionId: string;
  projectRoot: string;
  createdAt: string;
  model: string;
}

export interface MessageRecord {
  type: 'message';
  message: Message;
}

export interface SnapshotRecord {
  type: 'snapshot';
  messages: Message[];
  ts: string;
}

export type SessionRecord = MetaRecord | MessageRecord | SnapshotRecord;

export interface ParsedSession {
  meta: MetaRecord | undefined;
  messages: Message[];
  warnings: string[];
  /** True when the text does not end with a newline and its last line was unreadable (a crash mid-write). */
  tornTail: boolean;
}

const ROLES: ReadonlySet<Role> = new Set(['user', 'assistant', 'tool', 'summary']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isMessage(value: unknown): value is Message {
  if (!isObject(value) || !isObject(value.metadata)) return false;
  return (
    typeof value.role === 'string' &&
    ROLES.has(value.role as Role) &&
    typeof value.content === 'string' &&
    typeof value.metadata.round === 'number' &&
    typeof value.metadata.ts === 'string'
  );
}

function isMeta(value: Record<string, unknown>): value is Record<string, unknown> & MetaRecord {
  return (
    value.type === 'meta' &&
    typeof value.sessionId === 'string' &&
    typeof value.projectRoot === 'string' &&
    typeof value.model === 'string'
  );
}

/** Why a parsed line is not a usable record, or undefined when it is one. */
function problem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  if (value.type === 'meta') return isMeta(value) ? undefined : 'malformed meta record';
  if (value.type === 'message') return isMessage(value.message) ? undefined : 'malformed message record';
  if (value.type === 'snapshot') {
    return Array.isArray(value.messages) && value.messages.every(isMessage) ? undefined : 'malformed snapshot record';
  }
  return `unknown record type ${JSON.stringify(value.type)}`;
}

/** Parses a whole session file, skipping (and reporting) anything unreadable instead of failing. */
export function parseSessionText(text: string, label: string): ParsedSession {
  const result: ParsedSession = { meta: undefined, messages: [], warnings: [], tornTail: false };
  const lines = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const isLast = index === lines.length - 1 && !endsClean;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (isLast) {
        result.tornTail = true;
        result.warnings.push(
          `${label}: ignored an incomplete last line (the previous run was interrupted while writing)`,
        );
      } else {
        result.warnings.push(`${label}:${index + 1}: skipped a corrupt line (${(error as Error).message})`);
      }
      return;
    }
    const why = problem(value);
    if (why !== undefined) {
      result.warnings.push(`${label}:${index + 1}: skipped a line (${why})`);
      return;
    }
    const record = value as SessionRecord;
    if (record.type === 'meta') result.meta ??= record;
    else if (record.type === 'message') result.messages.push(record.message);
    else result.messages = [...record.messages];
  });
  return result;
}

/**
 * True when the last round was never closed: a user message after which no message carries
 * `roundEnd` (the process died or was killed mid-turn). Summaries do not open or close rounds.
 */
export function hasOpenRound(messages: readonly Message[]): boolean {
  let open = false;
  for (const message of messages) {
    if (message.role === 'user') open = true;
    if (message.metadata.roundEnd !== undefined) open = false;
  }
  return open;
}
