/**
 * The overall deadline of one model call, every retry included: however the server behaves (pings forever, one
 * token a minute, retry-after loops), the call ends with one clear 'timeout' error that is not retried. The
 * caller's abort still ends it at once. The signal it hands out is what the attempts and the retry loop use.
 */
import { ProviderError } from './provider-error.js';

export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 30 * 60 * 1000;

function describe(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10}s`;
}

export class CallDeadline {
  private readonly controller = new AbortController();
  private readonly onOuterAbort = (): void => this.controller.abort();
  private readonly timer: NodeJS.Timeout;
  private fired = false;

  constructor(
    private readonly outer: AbortSignal,
    private readonly ms: number,
  ) {
    outer.addEventListener('abort', this.onOuterAbort, { once: true });
    if (outer.aborted) this.controller.abort();
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The error to throw instead of whatever the abort caused, when the deadline (not the caller) ended the call. */
  expiredError(api: string): ProviderError | undefined {
    if (!this.fired || this.outer.aborted) return undefined;
    return new ProviderError(
      'timeout',
      `${api} did not finish the response within ${describe(this.ms)} (modelCallTimeoutMs); the call was abandoned.`,
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }
}

/**
 * Runs `stream` (one model call with its retries) under a CallDeadline. When the deadline fires, the call ends with
 * its one-line 'timeout' error (marked so no outer loop retries it).
 */
export async function* withDeadline<T>(
  signal: AbortSignal,
  ms: number,
  api: string,
  stream: (signal: AbortSignal) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const deadline = new CallDeadline(signal, ms);
  try {
    yield* stream(deadline.signal);
  } catch (error) {
    throw deadline.expiredError(api) ?? error;
  } finally {
    deadline.dispose();
  }
}
