/**
 * The per-attempt abort plumbing every streaming provider needs: one AbortController that fires when the
 * caller aborts, when nothing arrived for `idleTimeoutMs`, or when the attempt is disposed (which releases
 * the connection). `check()` turns "why did we abort" into the right ProviderError.
 */
import { ProviderError } from './provider-error.js';

export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'The request was cancelled.');
}

export class IdleWatch {
  private readonly controller = new AbortController();
  private readonly onOuterAbort = (): void => this.controller.abort();
  private timer: NodeJS.Timeout | undefined;
  private idleFired = false;

  /**
   * @param stallMessage the one-line message of the timeout error, given the idle limit in seconds.
   */
  constructor(
    private readonly outer: AbortSignal,
    private readonly idleTimeoutMs: number,
    private readonly stallMessage: (seconds: number) => string,
  ) {
    outer.addEventListener('abort', this.onOuterAbort, { once: true });
    if (outer.aborted) this.controller.abort();
  }

  /** The signal to hand to the transport for this attempt. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)starts the idle countdown: call when waiting for the next byte or event. */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.idleFired = true;
      this.controller.abort();
    }, this.idleTimeoutMs);
  }

  /** Stops the countdown while the consumer, not the server, holds things up. */
  pause(): void {
    clearTimeout(this.timer);
  }

  /** Throws 'aborted' if the caller aborted, 'timeout' if the stream went idle; otherwise returns. */
  check(): void {
    if (this.outer.aborted) throw abortedError();
    if (this.idleFired) {
      const seconds = Math.round(this.idleTimeoutMs / 100) / 10;
      throw new ProviderError('timeout', this.stallMessage(seconds));
    }
  }

  /** Ends the attempt: clears the timer, detaches from the caller's signal and releases the connection. */
  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
    this.controller.abort();
  }
}
