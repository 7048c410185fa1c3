/**
 * Appends records to one session file. Every append is a synchronous write of a whole line, so a crash
 * loses nothing already appended; `syncRoundEnd` makes it durable (fsync) at the end of each round.
 */
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { Message } from '../context/message.js';
import { redactSecrets } from '../text/redact-secrets.js';
import { fileSystemCause, SessionError } from './session-error.js';
import type { SessionLock } from './session-lock.js';
import type { SessionRecord } from './session-records.js';

export interface SessionWriter {
  readonly sessionId: string;
  readonly path: string;
  appendMessage(message: Message): void;
  /** The history to continue from after a compaction. */
  writeSnapshot(messages: Message[]): void;
  syncRoundEnd(): void;
  close(): void;
}

export const SESSION_FILE_MODE = 0o600;

export class JsonlSessionWriter implements SessionWriter {
  private fd: number | undefined;

  /** Opens `path` for appending (creating it 0600 if needed); owns `lock` and releases it on close. */
  constructor(
    readonly sessionId: string,
    readonly path: string,
    private readonly secrets: readonly string[],
    private readonly lock?: SessionLock,
  ) {
    try {
      // 'a' plus O_NOFOLLOW: a link planted at a session file's name is never appended through.
      const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
      this.fd = openSync(path, flags, SESSION_FILE_MODE);
    } catch (error) {
      lock?.release();
      throw new SessionError('SESSION_WRITE_FAILED', `cannot open session file ${path}: ${fileSystemCause(error)}`, {
        cause: error,
      });
    }
  }

  /** Writes one record as one line. Exposed for the store (meta line); everyone else uses the typed methods. */
  writeRecord(record: SessionRecord): void {
    this.writeRaw(`${redactSecrets(JSON.stringify(record), this.secrets)}\n`);
  }

  /** Writes text as is (the store uses it to finish a line a crash left without its newline). */
  writeRaw(text: string): void {
    const fd = this.openFd();
    const bytes = Buffer.from(text, 'utf8');
    // A write may take fewer bytes than asked (a file-size limit, a disk filling up): the rest is written in a loop,
    // and if the disk refuses it the file is cut back to where this record began, so a half record can never glue
    // itself to the next one and take both with it.
    let start: number | undefined;
    try {
      start = fstatSync(fd).size;
      let written = 0;
      while (written < bytes.length) {
        const count = writeSync(fd, bytes, written, bytes.length - written);
        if (count === 0) throw new Error('the file system accepted no bytes');
        written += count;
      }
    } catch (error) {
      try {
        if (start !== undefined) ftruncateSync(fd, start);
      } catch {
        // The loader cuts a torn tail at the right byte; the error below is what the user needs to hear.
      }
      if (error instanceof SessionError) throw error;
      throw new SessionError(
        'SESSION_WRITE_FAILED',
        `cannot write session file ${this.path}: ${fileSystemCause(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  appendMessage(message: Message): void {
    this.writeRecord({ type: 'message', message });
  }

  writeSnapshot(messages: Message[]): void {
    this.writeRecord({ type: 'snapshot', messages, ts: new Date().toISOString() });
  }

  syncRoundEnd(): void {
    const fd = this.openFd();
    try {
      fsyncSync(fd);
    } catch (error) {
      throw new SessionError(
        'SESSION_WRITE_FAILED',
        `cannot sync session file ${this.path}: ${fileSystemCause(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  /** Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      this.lock?.release();
    }
  }

  private openFd(): number {
    if (this.fd === undefined) throw new SessionError('SESSION_CLOSED', `Session ${this.sessionId} is already closed.`);
    return this.fd;
  }
}
