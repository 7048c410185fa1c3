import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { McaError } from '../errors/mca-error.js';

/** Process exit codes, as documented in the README. */
export const EXIT_OK = 0;
/** The agent or the model API failed (API error, step limit, repeated invalid actions). */
export const EXIT_AGENT_FAILURE = 1;
/** Bad flags, bad configuration, missing API key. */
export const EXIT_USAGE = 2;
/** Interrupted with Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** A user-facing failure: one line on stderr and an exit code, never a stack trace. */
export class CliError extends McaError {
  readonly code = 'CLI_ERROR' as const;
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** One line on stderr. The message may quote untrusted text (a file name, a server's error): neutralised. */
export function printError(message: string): void {
  process.stderr.write(`mca: ${neutralizeControlSequences(message.split('\n')[0] ?? message)}\n`);
}
