/**
 * Runs the REPL's `!command` lines with the Bash tool, so they get what the model's commands get: the project
 * directory, the timeout, the process group ended on Ctrl-C, capped output and credentials withheld. The user typed
 * the command, so it is approved without a prompt, except that the permission rules' deny rules still hold.
 */
import { createApprover } from '../agent/permissions.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { FileStateRecord } from '../tools/file-state.js';
import type { ToolEnvelope } from '../tools/envelope.js';
import { createDefaultRegistry } from '../tools/registry.js';
import { TodoStore } from '../tools/todo-store.js';

/** How long a `!command` may run before it is stopped (Ctrl-C stops it sooner). */
export const USER_SHELL_TIMEOUT_MS = 600_000;

export function createUserShell(
  projectRoot: string,
  policy?: PermissionPolicy,
): (command: string, signal: AbortSignal) => Promise<ToolEnvelope> {
  const registry = createDefaultRegistry();
  const approve = createApprover({ mode: 'bypassPermissions', ...(policy ? { policy } : {}) });
  return (command, signal) =>
    registry.run(
      'Bash',
      { command, timeout_ms: USER_SHELL_TIMEOUT_MS },
      {
        projectRoot,
        signal,
        fileState: new FileStateRecord(),
        todos: new TodoStore(),
        approve,
      },
    );
}
