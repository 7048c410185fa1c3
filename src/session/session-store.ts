/**
 * Sessions of one project: one append-only JSONL file per session under
 * `$MCA_HOME/projects/<slug>/<session-id>.jsonl` (directories 0700, files 0600).
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { readdir, readFile, stat, truncate } from 'node:fs/promises';
import { redactSecrets } from './redact.js';
import { join, resolve } from 'node:path';
import type { SessionInfo } from '../agent/controller.js';
import type { Message } from '../context/message.js';
import { projectSlug } from './project-slug.js';
import { SessionError } from './session-error.js';
import { parseSessionText, SESSION_FORMAT_VERSION, type MetaRecord } from './session-records.js';
import { JsonlSessionWriter, SESSION_FILE_MODE, type SessionWriter } from './session-writer.js';

export interface LoadedSession {
  sessionId: string;
  messages: Message[];
  writer: SessionWriter;
  warnings: string[];
  /** The meta record, when the first line was readable. */
  meta?: MetaRecord;
}

export interface SessionStoreOptions {
  /** Strings never written to disk (the API key); replaced with [REDACTED]. */
  secrets?: string[];
}

const DIR_MODE = 0o700;
const EXTENSION = '.jsonl';
/** What a user may type as an id (or prefix); anything else could escape the directory. */
const ID_PATTERN = /^[A-Za-z0-9-]+$/;
/** Session files are named by UUID; other .jsonl files in the directory (e.g. input history) are not sessions. */
const SESSION_FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIN_PREFIX = 4;
const TITLE_CHARS = 80;

function canonical(projectRoot: string): string {
  const absolute = resolve(projectRoot);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** First user message, first line, for pickers. */
function titleOf(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return '(no messages)';
  const line = (first.content.split('\n').find((part) => part.trim() !== '') ?? '').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line || '(empty message)';
}

export class SessionStore {
  readonly projectRoot: string;
  /** The directory holding this project's session files. */
  readonly dir: string;
  private readonly secrets: string[];

  constructor(mcaHome: string, projectRoot: string, options: SessionStoreOptions = {}) {
    this.projectRoot = canonical(projectRoot);
    this.dir = join(resolve(mcaHome), 'projects', projectSlug(this.projectRoot));
    this.secrets = (options.secrets ?? []).filter((secret) => secret.length > 0);
  }

  /** `text` with every credential the store knows replaced (for files beside the session, e.g. tool memory). */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  pathOf(sessionId: string): string {
    return join(this.dir, `${sessionId}${EXTENSION}`);
  }

  async create(model: string): Promise<SessionWriter> {
    this.ensureDir();
    const sessionId = randomUUID();
    const path = this.pathOf(sessionId);
    // 'wx': a fresh id never overwrites an existing file.
    writeFileSync(path, '', { flag: 'wx', mode: SESSION_FILE_MODE });
    chmodSync(path, SESSION_FILE_MODE);
    const writer = new JsonlSessionWriter(sessionId, path, this.secrets);
    const meta: MetaRecord = {
      type: 'meta',
      version: SESSION_FORMAT_VERSION,
      sessionId,
      projectRoot: this.projectRoot,
      createdAt: new Date().toISOString(),
      model,
    };
    writer.writeRecord(meta);
    return writer;
  }

  /** Loads a session (by id or a unique id prefix) and opens it for appending. */
  async open(sessionIdOrPrefix: string): Promise<LoadedSession> {
    const sessionId = await this.resolveId(sessionIdOrPrefix);
    const path = this.pathOf(sessionId);
    const text = await readFile(path, 'utf8');
    const parsed = parseSessionText(text, `${sessionId}${EXTENSION}`);
    if (parsed.tornTail) {
      // Drop the fragment so the next append starts on a fresh line instead of extending it.
      await truncate(path, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    }
    const writer = new JsonlSessionWriter(sessionId, path, this.secrets);
    if (!parsed.tornTail && text.length > 0 && !text.endsWith('\n')) writer.writeRaw('\n');
    const loaded: LoadedSession = { sessionId, messages: parsed.messages, writer, warnings: parsed.warnings };
    if (parsed.meta) loaded.meta = parsed.meta;
    return loaded;
  }

  /** The id of this project's most recently written session. */
  async latest(): Promise<string | undefined> {
    const files = await this.sessionFiles();
    return files[0]?.id;
  }

  /** This project's sessions, newest first. */
  async list(): Promise<SessionInfo[]> {
    const infos: SessionInfo[] = [];
    for (const file of await this.sessionFiles()) {
      let text: string;
      try {
        text = await readFile(this.pathOf(file.id), 'utf8');
      } catch {
        continue; // deleted between listing and reading
      }
      const parsed = parseSessionText(text, file.id);
      infos.push({
        id: file.id,
        updatedAt: new Date(file.mtimeMs).toISOString(),
        title: titleOf(parsed.messages),
        messages: parsed.messages.length,
      });
    }
    return infos;
  }

  private ensureDir(): void {
    const projects = join(this.dir, '..');
    for (const dir of [projects, this.dir]) {
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DIR_MODE });
      chmodSync(dir, DIR_MODE);
    }
  }

  /** Session files, newest (by mtime) first; ties broken by id so the order is stable. */
  private async sessionFiles(): Promise<Array<{ id: string; mtimeMs: number }>> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const files: Array<{ id: string; mtimeMs: number }> = [];
    for (const name of names) {
      if (!name.endsWith(EXTENSION)) continue;
      const id = name.slice(0, -EXTENSION.length);
      if (!SESSION_FILE_ID.test(id)) continue;
      try {
        const info = await stat(join(this.dir, name));
        if (info.isFile()) files.push({ id, mtimeMs: info.mtimeMs });
      } catch {
        // deleted meanwhile
      }
    }
    return files.sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
  }

  private async resolveId(given: string): Promise<string> {
    const wanted = given.trim();
    const notFound = new SessionError(
      'SESSION_NOT_FOUND',
      `No session "${wanted}" in ${this.projectRoot}. Run /resume (or mca -r with an id from it) to pick one.`,
    );
    if (!ID_PATTERN.test(wanted)) throw notFound;
    const ids = (await this.sessionFiles()).map((file) => file.id);
    if (ids.includes(wanted)) return wanted;
    const matches = wanted.length >= MIN_PREFIX ? ids.filter((id) => id.startsWith(wanted)) : [];
    if (matches.length === 1 && matches[0] !== undefined) return matches[0];
    if (matches.length > 1) {
      throw new SessionError(
        'SESSION_AMBIGUOUS',
        `Session id "${wanted}" matches ${matches.length} sessions; give more characters.`,
      );
    }
    throw notFound;
  }
}

export { projectSlug } from './project-slug.js';
export { hasOpenRound } from './session-records.js';
export { redactSecrets } from './redact.js';
export { SessionError, isSessionError, type SessionErrorCode } from './session-error.js';
export type { SessionWriter } from './session-writer.js';
