/**
 * A `-p` output sink: the one place that knows a format's wire shape. It consumes the AgentEvent stream of the run
 * and, once the run is over, writes the result. The internal event type may change; a sink's output may not
 * (users' scripts read it). Issue 24 replaces these shapes with Claude Code's; only src/print changes then.
 */
import type { AgentEvent } from '../loop/events.js';

export type TurnEnd = Extract<AgentEvent, { type: 'turn_end' }>;

/** Where a sink writes. Both redact the keys mca holds; `stderr` writes one `mca: …` line. */
export interface SinkOutput {
  stdout(text: string): void;
  stderr(line: string): void;
}

/** How the run ended, as every format reports it. */
export interface PrintResult {
  /** The turn's end (a failure outside the loop is made into an `error` end by the caller). */
  end: TurnEnd | undefined;
  /** The answer, or why there is none. */
  answer: string;
  /** An error, step limit or interrupt: exit code 1 or 130, and `is_error` in JSON. */
  failed: boolean;
  sessionId: string;
}

export interface PrintSink {
  event(event: AgentEvent): void;
  finish(result: PrintResult): void;
}
