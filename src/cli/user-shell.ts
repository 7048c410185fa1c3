/**
 * Runs shell commands the user asked for with the Bash tool, so they get what the model's commands get: the
 * project directory, the timeout, the process group ended on Ctrl-C, capped output and credentials withheld.
 * `!command` lines in the REPL: the user typed the command, so it is approved without a prompt, except that the
 * permission rules' deny rules still hold. Custom commands' `` !`command` `` lines go through `runBashWith` with
 * their own approver (see command-shell.ts).
 */
import { newCallId } from '../agent/call-id.js';
import { createDecide } from '../agent/permission-screen.js';
import { createApprover } from '../agent/permissions.js';
import type { CallSource } from '../tools/define-tool.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { FileStateRecord } from '../tools/file-state.js';
import type { ToolRegistry } from '../tools/registry.js';
import { TodoStore } from '../tools/todo-store.js';
import type { Approver } from '../tools/tool-context.js';
import type { ShellRunner } from '../ui/user-shell.js';

/** How long a `!command` may run before it is stopped (Ctrl-C stops it sooner). */
export const USER_SHELL_TIMEOUT_MS = 600_000;

/**
 * A Bash runner in `projectRoot` whose permission question goes to `approve`; its calls come from `source`.
 * `registry` is the session's: it redacts the keys mca holds from the output, as it does for the model's own commands.
 */
export function runBashWith(
  registry: ToolRegistry,
  projectRoot: string,
  approve: Approver,
  timeoutMs = USER_SHELL_TIMEOUT_MS,
  source: CallSource = 'user-shell',
): ShellRunner {
  const decide = createDecide(approve);
  return (command, signal) =>
    registry.run(
      { id: newCallId(), name: 'Bash', input: { command, timeout_ms: timeoutMs }, source },
      { projectRoot, signal, fileState: new FileStateRecord(), todos: new TodoStore(), decide },
    );
}

export function createUserShell(registry: ToolRegistry, projectRoot: string, policy?: PermissionPolicy): ShellRunner {
  return runBashWith(
    registry,
    projectRoot,
    createApprover({ mode: 'bypassPermissions', ...(policy ? { policy } : {}) }),
  );
}
