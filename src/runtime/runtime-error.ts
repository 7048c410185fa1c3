import { McaError } from '../errors/mca-error.js';

export type RuntimeErrorCode = 'PROJECT_NOT_FOUND' | 'PROJECT_NOT_DIRECTORY' | 'ADD_DIR_INVALID';

/** The runtime's own failures (its other failures keep their class: ConfigError, SessionError, …). */
export class RuntimeError extends McaError {
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
    /** The directory concerned, absolute. */
    readonly path: string,
  ) {
    super(message);
  }
}
