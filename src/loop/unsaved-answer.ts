/**
 * What a turn's failure says (its code and one line), and the failure of saving a final answer that had already
 * arrived (MCA_HOME full or read-only): that answer travels with the error so the front end still shows it. Apart
 * from turn-failure.ts so the steps that record an answer can use it without an import cycle.
 */
import { McaError, nodeErrorCode } from '../errors/mca-error.js';

/** A code and one line for whatever a turn threw: typed errors (SessionError, HistoryError) keep their code. */
export function describeFailure(error: unknown): { code: string; message: string } {
  // mca's errors keep their code; a Node system error (ENOSPC from a write) keeps its errno code.
  const code = McaError.isInstance(error) ? error.code : (nodeErrorCode(error) ?? 'INTERNAL_ERROR');
  const text = error instanceof Error ? error.message : String(error);
  return { code, message: text.split('\n')[0]?.trim() || 'unknown error' };
}

/**
 * A session write failed after the model's final answer had arrived (MCA_HOME full or read-only): the answer is
 * carried to the `turn_end` so the front end still shows it, then reports the write failure.
 */
export class UnsavedAnswerError extends McaError {
  /** The write failure's own code (SESSION_WRITE_FAILED, ENOSPC, …): the turn fails for that reason. */
  readonly code: string;
  constructor(
    readonly answer: string,
    writeError: unknown,
  ) {
    const failure = describeFailure(writeError);
    super(failure.message, { cause: writeError });
    this.code = failure.code;
  }
}

/** Runs `write` (recording or syncing the final answer); its failure becomes an UnsavedAnswerError. */
export function keepAnswerOnFailure(answer: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    throw new UnsavedAnswerError(answer, error);
  }
}
