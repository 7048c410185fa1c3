/**
 * `!command`: a shell command the user runs from the prompt. The user typed it, so it runs without a permission
 * prompt (like Claude Code's bash mode; the decision point's `user-shell` rule, after the deny rules); its result is shown like a Bash call and handed to the model with the
 * user's next message, as their own note.
 */
import { observationText } from '../context/observation.js';
import type { DecideFn } from '../tools/registry/define-tool.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

/**
 * Runs one command in the project directory; the CLI provides it (the Bash tool: timeout, process group, caps).
 * The call passes `decide`, the session's decision point (a `!` line the user typed is allowed there, source
 * `user-shell`, unless a deny rule refuses it).
 */
export type ShellRunner = (command: string, signal: AbortSignal, decide: DecideFn) => Promise<ToolEnvelope>;

/** The `!` prefix of shell mode, or undefined for a normal prompt. */
export function shellCommandOf(text: string): string | undefined {
  const match = /^!([\s\S]*)$/.exec(text.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

/** What the model is told about a command the user ran, at the start of their next message. */
export function shellNote(command: string, result: ToolEnvelope): string {
  return [
    '<user-shell-command>',
    'The user ran this shell command themselves in the project directory (not a tool call of yours):',
    `$ ${command}`,
    observationText(result),
    '</user-shell-command>',
  ].join('\n');
}

/** A stored user message without the shell notes it carried (the replay shows the user's own words). */
export { withoutShellNotes } from '../text/user-words.js';
