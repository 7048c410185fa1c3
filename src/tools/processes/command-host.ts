/**
 * The command-host port of Bash: a front whose host can run a command where the person watches it (an editor's
 * terminal over ACP) gives one; Bash then hands an approved command to it instead of spawning it. Everything else
 * stays Bash's own: the decision point, hooks and checkpoints ran before, the timeout and the call's signal end the
 * run (the host kills the command when `signal` aborts), and the result is rendered into the same text.
 */
import type { HostedTask } from './background-task-record.js';

export interface HostCommand {
  /** The shell and its arguments (`bash -c <command>`). */
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment the command gets (credentials already removed). */
  env: Record<string, string>;
  /** The most output bytes the host keeps (the tail, when there is more). */
  outputLimit: number;
  /** The tool call this command runs for (the host shows its terminal in that call). */
  callId: string;
  /** Aborted on a timeout or an interrupt: the host kills the command and answers with what it wrote. */
  signal: AbortSignal;
}

export interface HostCommandResult {
  /** How it ended: undefined when it was killed because `signal` aborted. */
  exit?: { code: number | null; signal: string | null };
  /** The command could not be started (the reason). */
  startError?: string;
  /** stdout and stderr, interleaved as the terminal shows them. */
  output: string;
  /** The host dropped the start of the output (over `outputLimit`). */
  truncated: boolean;
}

export interface CommandHost {
  run(command: HostCommand): Promise<HostCommandResult>;
  /**
   * Starts a background command (Bash `run_in_background`) where the host runs commands and returns at once; the
   * task registry reads, stops and releases it (background-tasks.ts). Absent: background commands run here.
   */
  startBackground?(command: Omit<HostCommand, 'signal'>): Promise<HostedTask>;
}
