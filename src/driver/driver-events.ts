/**
 * What a SessionDriver tells its front ends: the AgentEvent stream of its turns and compactions, plus the
 * driver-level events a front needs to show the conversation (lines it ran, shell lines, notices, state changes).
 * Fronts translate these into their own output (the REPL's transcript, a `-p` sink); none of it is a wire format.
 */
import type { AgentController } from '../loop/controller.js';
import type { AgentEvent } from '../loop/events.js';
import type { PermissionMode } from '../config/config.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

/** What the driver is doing: nothing, a model turn, a compaction, or a shell line (`!` or a command's). */

/** The `prompt_blocked` reason of an interrupt that came while UserPromptSubmit hooks ran. */
export const PROMPT_INTERRUPTED = 'Interrupted while a UserPromptSubmit hook ran: the prompt was not sent.';
export type Busy = null | 'turn' | 'compact' | 'shell';

export type NoticeTone = 'info' | 'warning' | 'error';

export type DriverEvent =
  | AgentEvent
  /** A turn is about to run; `text` is the user's line as typed (a custom command's `/name args`). */
  | { type: 'prompt'; text: string }
  /**
   * A UserPromptSubmit hook erased the prompt, or an interrupt came while the hooks ran (`reason` is then
   * PROMPT_INTERRUPTED): the model never saw it; `reason` is for the person.
   */
  | { type: 'prompt_blocked'; reason: string }
  /**
   * A turn or a compaction stopped. `ended`: the turn closed with its own turn_end. `aborted`: interrupted.
   * `error`: the stream threw (the loop or a session write failed).
   */
  | { type: 'run_end'; kind: 'turn' | 'compact'; ended: boolean; aborted: boolean; error?: unknown }
  | { type: 'shell_start'; command: string }
  | { type: 'shell_end'; command: string; result: ToolEnvelope }
  /** A custom command could not be expanded; the turn it would have become did not run. */
  | { type: 'command_failed'; name: string; error: unknown }
  | { type: 'notice'; text: string; tone: NoticeTone }
  /** `/clear` or `/resume` opened another session; `clear` asks the front to start its screen afresh. */
  | { type: 'session_switched'; controller: AgentController; message: string; clear: boolean }
  | { type: 'busy'; busy: Busy }
  | { type: 'queue'; queue: readonly string[] }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'model'; model: string };

export type DriverListener = (event: DriverEvent) => void;

const DRIVER_EVENT_TYPES: ReadonlySet<string> = new Set([
  'prompt',
  'prompt_blocked',
  'run_end',
  'shell_start',
  'shell_end',
  'command_failed',
  'notice',
  'session_switched',
  'busy',
  'queue',
  'mode',
  'model',
]);

/** True for the agent's own events (what a sink or a wire format translates), false for the driver's. */
export function isAgentEvent(event: DriverEvent): event is AgentEvent {
  return !DRIVER_EVENT_TYPES.has(event.type);
}
