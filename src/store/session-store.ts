/**
 * Sessions of one project: one append-only JSONL file per session under
 * `$MCA_HOME/projects/<slug>/<session-id>.jsonl` (directories 0700, files 0600).
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { redactSecrets } from '../text/redact-secrets.js';
import { join, resolve } from 'node:path';
import type { SessionInfo } from './session-info.js';
import { keepRewoundUsage } from '../context/archived-usage.js';
import type { Message } from '../context/message.js';
import { legacyProjectSlug, projectSlug } from './project-slug.js';
import { fileContains, listSessionFiles, SESSION_EXTENSION as EXTENSION, type SessionFile } from './session-files.js';
import { salvageHistory } from './salvage-history.js';
import { fileSystemCause, SessionError } from './session-error.js';
import { SessionLock } from './session-lock.js';
import { readSessionFile } from './session-reader.js';
import { SESSION_FORMAT_VERSION, type MetaRecord } from './session-records.js';
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
/** What a user may type as an id (or prefix); anything else could escape the directory. */
const ID_PATTERN = /^[A-Za-z0-9-]+$/;
const MIN_PREFIX = 4;
const TITLE_CHARS = 80;
/** How a user message starts in a record (JSON.stringify keeps key order); escaped inside any content. */
const USER_MESSAGE_MARK = Buffer.from('{"role":"user"');

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
  /** Where sessions lived before `dir` became unique per path (read for this project's own sessions only). */
  private readonly legacyDir: string | undefined;
  /** The directory each listed session was found in (the legacy one for old sessions). */
  private readonly locations = new Map<string, string>();
  private readonly secrets: string[];

  constructor(mcaHome: string, projectRoot: string, options: SessionStoreOptions = {}) {
    this.projectRoot = canonical(projectRoot);
    this.dir = join(resolve(mcaHome), 'projects', projectSlug(this.projectRoot));
    const legacy = join(resolve(mcaHome), 'projects', legacyProjectSlug(this.projectRoot));
    this.legacyDir = legacy === this.dir ? undefined : legacy;
    this.secrets = (options.secrets ?? []).filter((secret) => secret.length > 0);
  }

  /** `text` with every credential the store knows replaced (for files beside the session, e.g. tool memory). */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  pathOf(sessionId: string): string {
    return join(this.locations.get(sessionId) ?? this.dir, `${sessionId}${EXTENSION}`);
  }

  /** A new session file; `sessionId` (Claude Code's `--session-id`) names it, a fresh UUID otherwise. */
  async create(model: string, sessionId: string = randomUUID()): Promise<SessionWriter> {
    this.ensureDir();
    const path = this.pathOf(sessionId);
    const lock = this.lock(sessionId);
    try {
      // 'wx': a fresh id never overwrites an existing file.
      writeFileSync(path, '', { flag: 'wx', mode: SESSION_FILE_MODE });
      chmodSync(path, SESSION_FILE_MODE);
    } catch (error) {
      lock.release();
      throw new SessionError('SESSION_WRITE_FAILED', `cannot create session file ${path}: ${fileSystemCause(error)}`, {
        cause: error,
      });
    }
    const writer = new JsonlSessionWriter(sessionId, path, this.secrets, lock);
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

  /**
   * Loads a session (by id or a unique id prefix) and opens it for appending, as its only live user (a second
   * process gets SESSION_LOCKED). Whatever the file holds, it loads: unreadable lines are skipped, a torn tail is
   * cut at the last complete line (in bytes), a damaged round is closed as damaged and a round a dead process
   * left open as crashed; the repair is written back and reported in one warning line.
   */
  async open(sessionIdOrPrefix: string): Promise<LoadedSession> {
    const sessionId = await this.resolveId(sessionIdOrPrefix);
    const path = this.pathOf(sessionId);
    const label = `${sessionId}${EXTENSION}`;
    const lock = this.lock(sessionId);
    let writer: JsonlSessionWriter;
    let parsed;
    try {
      parsed = await readSessionFile(path, label);
      // Drop a torn fragment so the next append starts on a fresh line instead of extending it.
      if (parsed.tornTail) await truncate(path, parsed.completeBytes);
      writer = new JsonlSessionWriter(sessionId, path, this.secrets, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
    if (!parsed.tornTail && parsed.completeBytes < parsed.totalBytes) writer.writeRaw('\n');
    const salvaged = salvageHistory(parsed.messages);
    // A snapshot after a repair (or after unreadable lines) makes every later load start clean from it.
    const unreadable = parsed.warnings.length - (parsed.tornTail ? 1 : 0);
    if (salvaged.rewritten || unreadable > 0) writer.writeSnapshot(salvaged.messages);
    else if (salvaged.messages.length > parsed.messages.length) {
      for (const added of salvaged.messages.slice(parsed.messages.length)) writer.appendMessage(added);
    }
    const warnings: string[] = [];
    const damage = describeDamage(parsed.warnings.length, salvaged.dropped, salvaged.damagedRounds);
    if (damage !== undefined) warnings.push(`${label}: ${damage}; the rest of the session loaded`);
    if (salvaged.crashedRound !== undefined) {
      warnings.push(
        `${label}: round ${salvaged.crashedRound} ended when mca stopped unexpectedly; it is closed as crashed`,
      );
    }
    const loaded: LoadedSession = { sessionId, messages: salvaged.messages, writer, warnings };
    if (parsed.meta) loaded.meta = parsed.meta;
    return loaded;
  }

  /**
   * A session's conversation, read without taking its lock or changing its file (`--fork-session`: the copy
   * continues in a new session, the original stays exactly as it was). Its damage is repaired in the copy only.
   */
  async readMessages(
    sessionIdOrPrefix: string,
  ): Promise<{ sessionId: string; messages: Message[]; warnings: string[] }> {
    const sessionId = await this.resolveId(sessionIdOrPrefix);
    const label = `${sessionId}${EXTENSION}`;
    const parsed = await readSessionFile(this.pathOf(sessionId), label);
    const salvaged = salvageHistory(parsed.messages);
    const damage = describeDamage(parsed.warnings.length, salvaged.dropped, salvaged.damagedRounds);
    return {
      sessionId,
      messages: salvaged.messages,
      warnings: damage === undefined ? [] : [`${label}: ${damage}; the rest of the session was copied`],
    };
  }

  /**
   * The id of this project's most recently written session that has a round in it (so a REPL opened and
   * closed, or a /clear, does not make `-c` pick an empty session).
   */
  async latest(): Promise<string | undefined> {
    for (const file of await this.sessionFiles()) {
      try {
        if (await fileContains(this.pathOf(file.id), USER_MESSAGE_MARK)) return file.id;
      } catch {
        // deleted or unreadable meanwhile
      }
    }
    return undefined;
  }

  /** This project's sessions, newest first. */
  async list(): Promise<SessionInfo[]> {
    const infos: SessionInfo[] = [];
    for (const file of await this.sessionFiles()) {
      let parsed;
      try {
        parsed = await readSessionFile(this.pathOf(file.id), file.id);
      } catch {
        continue; // deleted between listing and reading
      }
      infos.push({
        id: file.id,
        updatedAt: new Date(file.mtimeMs).toISOString(),
        title: titleOf(parsed.messages),
        messages: parsed.messages.length,
      });
    }
    return infos;
  }

  /**
   * Cuts a session file back to `offset` bytes (a conversation rewind: the record of the prompt it goes back to
   * starts there), then writes `snapshot` when given (the prompt was first stored inside a compaction snapshot:
   * the messages before it). Under the session's lock: a session open in another process is refused.
   * The money the removed model calls cost was spent: their usage is added to the last kept message
   * (`rewoundUsage`, written as a snapshot), so /cost still counts it; the context size does not.
   */
  async cut(sessionId: string, offset: number, snapshot?: Message[]): Promise<void> {
    const lock = this.lock(sessionId);
    const path = this.pathOf(sessionId);
    try {
      const before = (await readSessionFile(path, sessionId)).messages;
      await truncate(path, offset);
      const kept = snapshot ?? (await readSessionFile(path, sessionId)).messages;
      const carried = keepRewoundUsage(before, kept);
      if (snapshot || carried.some((message, index) => message !== kept[index])) {
        const writer = new JsonlSessionWriter(sessionId, path, this.secrets);
        writer.writeSnapshot(carried);
        writer.close();
      }
    } finally {
      lock.release();
    }
  }

  /** Replaces a session file's content (undoing a cut), under the session's lock. */
  async replace(sessionId: string, content: Buffer): Promise<void> {
    const lock = this.lock(sessionId);
    try {
      await writeFile(this.pathOf(sessionId), content, { mode: SESSION_FILE_MODE });
    } finally {
      lock.release();
    }
  }

  private lock(sessionId: string): SessionLock {
    this.ensureDir();
    const path = join(this.locations.get(sessionId) ?? this.dir, `${sessionId}.lock`);
    try {
      return SessionLock.acquire(path, sessionId);
    } catch (error) {
      if (error instanceof SessionError) throw error;
      throw new SessionError(
        'SESSION_WRITE_FAILED',
        `cannot create the session lock file ${path}: ${fileSystemCause(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private ensureDir(): void {
    const projects = join(this.dir, '..');
    for (const dir of [projects, this.dir]) {
      try {
        if (!existsSync(dir)) makeDirectory(dir);
        chmodSync(dir, DIR_MODE);
      } catch (error) {
        throw new SessionError(
          'SESSION_WRITE_FAILED',
          `cannot create the session directory ${dir} (under MCA_HOME): ${fileSystemCause(error)}`,
          { cause: error },
        );
      }
    }
  }

  /** Session files, newest first, remembering where each was found. */
  private async sessionFiles(): Promise<SessionFile[]> {
    const files = await listSessionFiles(this.dir, this.legacyDir, this.projectRoot);
    for (const file of files) this.locations.set(file.id, file.dir);
    return files;
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

/**
 * mkdir -p that reports the real cause: Node's recursive mkdir says ENOENT on a read-only file system, so the
 * failure is retried as a plain mkdir, whose errno (EROFS, EACCES, ENOSPC) is the one worth showing.
 */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { mode: DIR_MODE });
    throw error;
  }
}

function describeDamage(badLines: number, dropped: number, damagedRounds: readonly number[]): string | undefined {
  const parts: string[] = [];
  if (badLines > 0) parts.push(`skipped ${badLines} unreadable line${badLines === 1 ? '' : 's'}`);
  if (dropped > 0) parts.push(`dropped ${dropped} record${dropped === 1 ? '' : 's'} out of place`);
  if (damagedRounds.length > 0) {
    parts.push(`closed round${damagedRounds.length === 1 ? '' : 's'} ${damagedRounds.join(', ')} as damaged`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

export { projectSlug } from './project-slug.js';
export { hasOpenRound } from './session-records.js';
export { redactSecrets } from '../text/redact-secrets.js';
export { SessionError, isSessionError, type SessionErrorCode } from './session-error.js';
export type { SessionWriter } from './session-writer.js';
