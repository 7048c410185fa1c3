/**
 * What a SessionDriver is built from (its options) and the Shift+Tab order of permission modes.
 */
import type { SessionManager } from '../loop/controller.js';
import type { PermissionMode } from '../config/config.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { CustomCommandsPort } from './custom-commands-port.js';
import type { DriverHooksOptions } from './driver-hooks.js';
import type { PermissionBroker } from './permission-broker.js';
import type { ShellRunner } from './shell-lines.js';
import type { ParsedSlash } from './slash-parse.js';

export interface SessionDriverOptions {
  sessions: SessionManager;
  /** Asks the person about calls no rule or mode decides; absent when nobody can answer (`-p`). */
  broker?: PermissionBroker | undefined;
  /** The permission rules (settings files and flags) the decision point applies; absent: only the mode decides. */
  policy?: PermissionPolicy | undefined;
  customCommands?: CustomCommandsPort | undefined;
  /**
   * Built-in slash commands (`/help`, `/clear`, …) go to this handler of the front end; absent, such a line is a
   * prompt for the model (`-p`).
   */
  slash?: ((command: ParsedSlash) => void) | undefined;
  /**
   * Without `slash`: the commands the driver runs itself (`/compact`, `/init`; the table's `driverRuns`) are run;
   * every other line starting with `/` is a prompt (ACP).
   */
  driverCommands?: boolean | undefined;
  /**
   * `!` lines: run in the project directory by `runner` (the REPL; without a runner a notice says they are not
   * available). Absent, a `!` line is a prompt for the model (`-p`).
   */
  shellLines?: { runner?: ShellRunner | undefined } | undefined;
  /**
   * `# note` lines (one line starting with `#`): handed to the front end, which adds the note to a memory file the
   * person picks. Absent, such a line is a prompt for the model (`-p`).
   */
  memoryNote?: ((note: string) => void) | undefined;
  /**
   * A custom command's `model:` frontmatter: `true` sets the conversation's model (`-p`, one turn anyway);
   * `'turn'` (the REPL) uses it for that command's turn and then returns to the model the user had, as Claude
   * Code does.
   */
  applyCommandModel?: boolean | 'turn' | undefined;
  /**
   * What a prompt's mentions bring along beyond files (MCP resources, `@server:uri`): the text the model sees, and
   * one line for each mention that could not be read (the prompt still runs). Absent: the prompt goes as typed.
   */
  attachments?: ((prompt: string) => Promise<{ text: string; notices: string[] }>) | undefined;
  /** The hooks of the settings files (src/hooks); absent or with none in effect, nothing is spawned. */
  hooks?: DriverHooksOptions | undefined;
}

/** Shift+Tab: default → acceptEdits → plan → default. bypassPermissions (only from flags) is left the same way. */
export function nextPermissionMode(mode: PermissionMode): PermissionMode {
  if (mode === 'default') return 'acceptEdits';
  if (mode === 'acceptEdits') return 'plan';
  return 'default';
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
