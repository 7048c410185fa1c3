/**
 * Failures that are not bugs of mca but of its surroundings (a full disk, an unwritable MCA_HOME, a session
 * file that cannot be written): one line naming the path and the cause, never "internal error".
 */
import { nodeErrorCode } from '../errors/mca-error.js';
import { fileSystemCause, SessionError } from '../store/session-error.js';

export function describeKnownFailure(error: unknown): string | undefined {
  if (error instanceof SessionError) return error.message;
  // Node's file-system errors only (a code and a path); mca's own errors never pass for one.
  const errno = error as NodeJS.ErrnoException | undefined;
  if (nodeErrorCode(error) !== undefined && typeof errno?.path === 'string') {
    const action = errno.syscall ? `${errno.syscall} ${errno.path}` : errno.path;
    return `cannot ${action}: ${fileSystemCause(error)}`;
  }
  return undefined;
}
