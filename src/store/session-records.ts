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

/**
 * Folds lines of a session file into a ParsedSession, one at a time, so a file of any size can be streamed
 * through it (session-reader.ts) and only the current history is held. Unreadable lines are skipped and
 * reported; a snapshot replaces everything before it.
 */
export class SessionLineFolder {
  readonly result: ParsedSession = { meta: undefined, messages: [], warnings: [], tornTail: false };

  constructor(private readonly label: string) {}

  /** `torn`: this is an unterminated last line (the file does not end with a newline). */
  accept(line: string, lineNumber: number, torn: boolean): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (torn) {
        this.result.tornTail = true;
        this.result.warnings.push(
          `${this.label}: ignored an incomplete last line (the previous run was interrupted while writing)`,
        );
      } else {
        this.result.warnings.push(`${this.label}:${lineNumber}: skipped a corrupt line (${(error as Error).message})`);
      }
      return;
    }
    this.acceptValue(value, lineNumber);
  }

  /** A line too long to hold is skipped without ever being decoded. */
  skipOversized(lineNumber: number, bytes: number): void {
    this.result.warnings.push(`${this.label}:${lineNumber}: skipped a ${bytes}-byte line (over the record size limit)`);
  }

  private acceptValue(value: unknown, lineNumber: number): void {
    const why = problem(value);
    if (why !== undefined) {
      this.result.warnings.push(`${this.label}:${lineNumber}: skipped a line (${why})`);
      return;
    }
    const record = value as SessionRecord;
    if (record.type === 'meta') this.result.meta ??= record;
    else if (record.type === 'message') this.result.messages.push(record.message);
    else {
      // A snapshot supersedes everything before it, including lines that could not be read.
      this.result.messages = [...record.messages];
      this.result.warnings = [];
    }
  }
}

/** Parses a whole session file held in memory (tests, small files); session-reader.ts streams big ones. */
export function parseSessionText(text: string, label: string): ParsedSession {
  const folder = new SessionLineFolder(label);
  const lines = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  lines.forEach((line, index) => folder.accept(line, index + 1, index === lines.length - 1 && !endsClean));
  return folder.result;
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
