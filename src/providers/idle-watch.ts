/**
 * The per-attempt abort plumbing every streaming provider needs: one AbortController that fires when the
 * caller aborts, when nothing new arrived for `idleTimeoutMs`, or when the attempt is disposed (which releases
 * the connection). `check()` turns "why did we abort" into the right ProviderError.
 *
 * Only progress resets the countdown: after an event that carried new content the provider calls `arm()`; after
 * one that did not (a `ping`, an empty delta) it calls `resume()`, which continues the countdown where it was, so
 * a server that only keeps the connection alive still times out.
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
  /** While counting: when the countdown ends (ms, monotonicMs clock). */
  private endsAt = 0;
  /** While paused: what was left of the countdown. */
  private remainingMs: number;

  /**
   * @param stallMessage the one-line message of the timeout error, given the idle limit in seconds.
   */
  constructor(
    private readonly outer: AbortSignal,
    private readonly idleTimeoutMs: number,
    private readonly stallMessage: (seconds: number) => string,
  ) {
    this.remainingMs = idleTimeoutMs;
    outer.addEventListener('abort', this.onOuterAbort, { once: true });
    if (outer.aborted) this.controller.abort();
  }

  /** The signal to hand to the transport for this attempt. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts a full idle countdown: call at the start and after every event that made progress. */
  arm(): void {
    this.start(this.idleTimeoutMs);
  }

  /** Continues the countdown paused by `pause()` without restarting it: after an event that made no progress. */
  resume(): void {
    this.start(this.remainingMs);
  }

  /** Stops the countdown while the consumer, not the server, holds things up. */
  pause(): void {
    if (this.timer !== undefined) this.remainingMs = Math.max(0, this.endsAt - monotonicMs());
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(ms: number): void {
    clearTimeout(this.timer);
    this.remainingMs = ms;
    this.endsAt = monotonicMs() + ms;
    this.timer = setTimeout(() => {
      this.idleFired = true;
      this.controller.abort();
    }, ms);
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

/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: the first use of the `performance` global loads
 * node:perf_hooks, about 1.7 ms of every start-up.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
