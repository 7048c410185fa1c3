/**
 * The retry loop shared by the streaming providers: every retry is visible to the agent as a `retry`
 * StreamEvent, and nothing is retried once text reached the caller (a retry would duplicate it).
 */
import { abortedError } from './idle-watch.js';
import type { ProviderError } from './provider-error.js';
import { isRetryWorthy, retryDelayMs, sleep, type BackoffOptions } from './retry-policy.js';
import type { StreamEvent } from './types.js';

export interface RetryLoopOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  backoff: BackoffOptions;
  /** Maps whatever an attempt threw (the caller's abort is already handled) to a ProviderError. */
  toError: (error: unknown) => ProviderError;
}

/** Runs `attempt` until it completes, fails for good, or the signal fires (→ 'aborted'). */
export async function* withRetries(
  attempt: () => AsyncGenerator<StreamEvent>,
  signal: AbortSignal,
  options: RetryLoopOptions,
): AsyncGenerator<StreamEvent> {
  for (let retry = 0; ; retry++) {
    if (signal.aborted) throw abortedError();
    let yieldedText = false;
    try {
      for await (const event of attempt()) {
        if (event.type === 'text') yieldedText = true;
        yield event;
      }
      return;
    } catch (error) {
      const failure = signal.aborted ? abortedError() : options.toError(error);
      // Once text reached the caller a retry would duplicate it; the agent decides what to do.
      if (yieldedText || retry >= options.maxRetries || !isRetryWorthy(failure)) throw failure;
      const delayMs = retryDelayMs(retry + 1, failure, options.backoff);
      yield {
        type: 'retry',
        attempt: retry + 1,
        delayMs,
        reason: failure.message,
        maxRetries: options.maxRetries,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      };
      await sleep(delayMs, signal);
    }
  }
}
