/**
 * Runs shell commands the user asked for with the Bash tool, so they get what the model's commands get: the
 * project directory, the timeout, the process group ended on Ctrl-C, capped output and credentials withheld.
 * Whether a command may run is the session's decision point's answer, like every call: `!command` lines (source
 * `user-shell`) are allowed there without a prompt unless a deny rule refuses them; a custom command's
 * `` !`command` `` lines (source `command`, see command-shell.ts) are judged like the model's calls, with the
 * command's `allowed-tools` as allow rules.
 */
import { newCallId } from '../loop/call-id.js';
import { bashTool } from '../tools/processes/bash.js';
import type { CallSource } from '../tools/registry/define-tool.js';
import { FileStateRecord } from '../tools/files/file-state.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { TodoStore } from '../tools/planning/todo-store.js';
import type { ShellRunner } from './shell-lines.js';

/** How long a `!command` may run before it is stopped (Ctrl-C stops it sooner). */
export const USER_SHELL_TIMEOUT_MS = 600_000;

/**
 * A Bash runner in `projectRoot` whose calls come from `source`. `registry` is the session's: it redacts the keys
 * mca holds from the output, as it does for the model's own commands.
 */
export function runBashWith(
  registry: ToolRegistry,
  projectRoot: string,
  timeoutMs = USER_SHELL_TIMEOUT_MS,
  source: CallSource = 'user-shell',
): ShellRunner {
  return (command, signal, decide) =>
    registry.run(
      { id: newCallId(), name: bashTool.name, input: { command, timeout_ms: timeoutMs }, source },
      { projectRoot, signal, fileState: new FileStateRecord(), todos: new TodoStore(), gate: { decide } },
    );
}

/** The REPL's `!command` runner. */
export function createUserShell(registry: ToolRegistry, projectRoot: string): ShellRunner {
  return runBashWith(registry, projectRoot);
}
