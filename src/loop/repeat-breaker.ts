/**
 * The repeated-call breaker of one turn: the same tool with the same input `limit` times in a row is a streak. The
 * first streak's last call does not run: the model is told, and shown the result the call had (so a model that
 * lost track of it has it again). A second streak in the same turn (the same call once more right after, or a new
 * streak later) ends the turn with REPEATED_ACTION: a loop that burns the budget is stopped, not fed.
 */
import type { ToolAction } from '../context/message.js';
import { errorEnvelope, type ToolEnvelope } from '../tools/registry/envelope.js';
import { actionKey } from './react-protocol.js';

/** What is shown of the earlier result (the model had it whole once already). */
const EARLIER_RESULT_CHARS = 4_000;

export type RepeatVerdict = 'run' | 'repeat' | 'stop';

/** How a second streak ends the turn (a RoundOutcome of turn-state.ts, which holds the breaker). */
export interface RepeatStop {
  reason: 'error';
  answer: string;
  error: { code: 'REPEATED_ACTION'; message: string };
}

export class RepeatBreaker {
  private lastKey: string | undefined;
  private inARow = 0;
  private warned = false;
  private lastResult = '';

  constructor(readonly limit: number) {}

  /** Counts `action` (about to run) and says whether it runs, is answered with its earlier result, or ends the turn. */
  verdict(action: ToolAction): RepeatVerdict {
    const key = actionKey(action);
    this.inARow = key === this.lastKey ? this.inARow + 1 : 1;
    this.lastKey = key;
    if (this.inARow < this.limit) return 'run';
    if (this.warned) return 'stop';
    this.warned = true;
    return 'repeat';
  }

  /** The text of the result the last call that ran had. */
  noteResult(text: string): void {
    this.lastResult = text;
  }

  get timesInARow(): number {
    return this.inARow;
  }

  /** The answer to the call that completed the first streak (it did not run). */
  repeatedEnvelope(tool: string): ToolEnvelope {
    const earlier =
      this.lastResult.length > EARLIER_RESULT_CHARS
        ? `${this.lastResult.slice(0, EARLIER_RESULT_CHARS)}\n[… cut]`
        : this.lastResult;
    return errorEnvelope(
      'INVALID_PARAM',
      `You called ${tool} with the same input ${this.inARow} times in a row, so it was not run again. ` +
        `Its result was:\n${earlier}\nUse that result or try a different approach: calling it the same way again ends the turn.`,
    );
  }

  /** What the call that ended the turn is answered with (it did not run either). */
  stopEnvelope(tool: string): ToolEnvelope {
    return errorEnvelope('INVALID_PARAM', `${this.stop(tool).answer} Try a different approach.`);
  }

  /** The turn's end after a second streak. */
  stop(tool: string): RepeatStop {
    const message = `The model repeated the same ${tool} call ${this.inARow} times in a row after it was told; stopping.`;
    return { reason: 'error', answer: message, error: { code: 'REPEATED_ACTION', message } };
  }
}
