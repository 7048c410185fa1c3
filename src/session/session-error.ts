export type SessionErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_AMBIGUOUS'
  | 'SESSION_INVALID'
  | 'SESSION_WRITE_FAILED'
  | 'SESSION_CLOSED'
  | 'SESSION_LOCKED';

/** Every session-store failure. `message` is one line a user can act on. */
export class SessionError extends Error {
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
