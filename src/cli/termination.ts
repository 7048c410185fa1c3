/**
 * SIGTERM and SIGHUP (a closed terminal, `kill`, a CI timeout) end mca in order: the running turn is aborted
 * (which ends its Bash process group and closes the round), the session is flushed, and mca exits 143 or 129.
 * A turn that does not end within the grace period, or a second signal, ends everything at once. Every exit
 * path also SIGKILLs any Bash process group still tracked, so no command outlives mca.
 */
import { killTrackedGroupsNow, terminateTrackedGroups } from '../tools/processes/process-group.js';
import type { TurnEnd } from '../sinks/sink.js';
import { ZERO_USAGE } from '../providers/types.js';

export type TerminationSignal = 'SIGTERM' | 'SIGHUP';
const SIGNALS: readonly TerminationSignal[] = ['SIGTERM', 'SIGHUP'];
/** 128 + the signal number, as shells report it. */
export const SIGNAL_EXIT_CODES: Readonly<Record<TerminationSignal, number>> = { SIGTERM: 143, SIGHUP: 129 };
const GRACE_MS = 5_000;

process.once('exit', killTrackedGroupsNow);

/**
 * The end a turn stopped by `signal` is reported with (its result line, then exit 143 or 129): the turn was closed
 * and the session file finished before this is printed.
 */
export function terminatedEnd(signal: TerminationSignal, end: TurnEnd | undefined): TurnEnd {
  return stoppedEnd('TERMINATED', `stopped by ${signal}; the turn was closed and the session saved`, end);
}

/** A turn mca stopped itself (a signal, the stall watchdog): an error end with `message`, keeping its steps and usage. */
export function stoppedEnd(code: string, message: string, end: TurnEnd | undefined): TurnEnd {
  return {
    type: 'turn_end',
    reason: 'error',
    answer: message,
    steps: end?.steps ?? 0,
    usage: end?.usage ?? ZERO_USAGE,
    error: { code, message },
  };
}

export interface TerminationHandlers {
  /** Asked to stop the running turn; the front end then ends normally and checks `signal()`. */
  abortTurn(): void;
  /** Flushes and closes whatever is open (the session file); called before a forced exit. */
  flush(): void;
}

export interface Termination {
  /** The signal that arrived, if any. */
  signal(): TerminationSignal | undefined;
  uninstall(): void;
}

export function installTermination(handlers: TerminationHandlers): Termination {
  let received: TerminationSignal | undefined;
  const forceExit = (signal: TerminationSignal): void => {
    killTrackedGroupsNow();
    try {
      handlers.flush();
    } finally {
      process.exit(SIGNAL_EXIT_CODES[signal]);
    }
  };
  const listeners = SIGNALS.map((signal) => {
    const listener = (): void => {
      if (received !== undefined) return forceExit(received);
      received = signal;
      handlers.abortTurn();
      void terminateTrackedGroups();
      setTimeout(() => forceExit(signal), GRACE_MS).unref();
    };
    process.on(signal, listener);
    return { signal, listener };
  });
  return {
    signal: () => received,
    uninstall: () => {
      for (const { signal, listener } of listeners) process.off(signal, listener);
    },
  };
}
