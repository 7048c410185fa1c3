/**
 * Appends records to one session file. Every append is a synchronous write of a whole line, so a crash
 * loses nothing already appended; `syncRoundEnd` makes it durable (fsync) at the end of each round.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
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
      this.fd = openSync(path, 'a', SESSION_FILE_MODE);
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
    try {
      writeSync(this.openFd(), text);
    } catch (error) {
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
