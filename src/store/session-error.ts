import { McaError } from '../errors/mca-error.js';
export type SessionErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_AMBIGUOUS'
  | 'SESSION_INVALID'
  | 'SESSION_WRITE_FAILED'
  | 'SESSION_CLOSED'
  | 'SESSION_LOCKED';

/** Every session-store failure. `message` is one line a user can act on. */
export class SessionError extends McaError {
  readonly code: SessionErrorCode;

  constructor(code: SessionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionError';
    this.code = code;
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is larger than the file-size limit allows',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
};

/** "no space left on the device (ENOSPC)": the cause of a file-system failure in words a user can act on. */
export function fileSystemCause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const text = code === undefined ? undefined : ERRNO_TEXT[code];
  if (text !== undefined) return `${text} (${code})`;
  return error instanceof Error ? error.message : String(error);
}
