/**
 * The two kinds of line the session driver runs besides a prompt: a `!` shell line (the user's own command, judged by
 * the session's decision point as `user-shell`) and a custom command (its `!` lines, then its expanded prompt as a
 * turn). They live here, beside the driver, and reach its state only through a LineRunnerHost it makes.
 */
import { errorEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import type { CustomCommandsPort } from './custom-commands-port.js';
import type { SessionDecisionPoint } from './decision-point.js';
import type { Busy, DriverEvent, NoticeTone } from './driver-events.js';
import { errorText, type SessionDriverOptions } from './session-driver-options.js';
import { shellNote } from './shell-lines.js';

/** What the runners may do to the driver (closures over its private state). */
export interface LineRunnerHost {
  options: Pick<SessionDriverOptions, 'shellLines'> & { customCommands?: CustomCommandsPort | undefined };
  decisions(): SessionDecisionPoint;
  /** The run's abort: set while the line runs, so an interrupt reaches it. */
  setAbort(abort: AbortController | null): void;
  currentAbort(): AbortController | null;
  setBusy(busy: Busy): void;
  emit(event: DriverEvent): void;
  notice(text: string, tone?: NoticeTone): void;
  /** A shell note for the next message to the model. */
  addNote(note: string): void;
  /** Runs the oldest queued line when the driver is free. */
  next(): void;
  runTurn(text: string, shown: string, after: (() => void) | undefined, mentionText: string): Promise<void>;
  /** A command's `model:` applied for its turn; returns the restore step (undefined: nothing to restore). */
  commandModel(model: string | undefined): (() => void) | undefined;
}

/** `!command`: runs it in the project directory; its result goes to the model with the next message. */
export async function runShellLine(host: LineRunnerHost, command: string): Promise<void> {
  if (!command) return host.notice('Type a command after ! to run it in the project directory, e.g. !git status.');
  const runner = host.options.shellLines?.runner;
  if (!runner) return host.notice('Shell commands are not available here.', 'warning');
  const abort = new AbortController();
  host.setAbort(abort);
  host.setBusy('shell');
  host.emit({ type: 'shell_start', command });
  let result: ToolEnvelope;
  try {
    result = await runner(command, abort.signal, host.decisions().decide);
  } catch (error) {
    result = errorEnvelope('EXECUTION_ERROR', `The command could not run: ${errorText(error)}`);
  }
  if (host.currentAbort() === abort) host.setAbort(null);
  host.emit({ type: 'shell_end', command, result });
  host.addNote(shellNote(command, result));
  host.setBusy(null);
  host.next();
}

/**
 * `/name args` of a custom command: its `!` lines pass the session's decision point (source `command`, with the
 * command's `allowed-tools` as allow rules, in the mode the driver holds when each line runs), then the expanded
 * prompt is a turn.
 */
export async function runCustomCommand(
  host: LineRunnerHost,
  text: string,
  custom: { name: string; args: string; model?: string },
): Promise<void> {
  const port = host.options.customCommands;
  if (!port) return;
  const restore = host.commandModel(custom.model);
  const abort = new AbortController();
  host.setAbort(abort);
  host.setBusy('shell');
  let prompt: { prompt: string; mentionText: string } | undefined;
  try {
    prompt = await port.expand(custom.name, custom.args, { decisions: host.decisions(), signal: abort.signal });
  } catch (error) {
    host.emit({ type: 'command_failed', name: custom.name, error });
  }
  if (host.currentAbort() === abort) host.setAbort(null);
  host.setBusy(null);
  if (prompt !== undefined && !abort.signal.aborted) {
    return await host.runTurn(prompt.prompt, text, restore, prompt.mentionText);
  }
  restore?.();
  host.next();
}
