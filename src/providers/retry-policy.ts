/** When and how long a provider waits before trying a failed call again. */
import { ProviderError } from './provider-error.js';

/** HTTP statuses worth another attempt; other failures carry no status (network, idle timeout). */
const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504, 529]);

export interface BackoffOptions {
  /** First wait; doubles each retry. */
  baseDelayMs: number;
  /** Ceiling of the exponential wait. */
  maxDelayMs: number;
  /** Ceiling of a server-requested wait (retry-after). */
  maxRetryAfterMs: number;
  /** In [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

export function isRetryWorthy(error: ProviderError): boolean {
  if (!error.retryable) return false;
  return error.status === undefined || RETRY_STATUSES.has(error.status);
}

/**
 * The wait before retry number `retry` (1-based). A server-requested wait wins (capped); otherwise
 * exponential backoff with up to 25 % jitter downwards, so parallel clients do not retry in lockstep.
 */
export function retryDelayMs(retry: number, error: ProviderError, options: BackoffOptions): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, options.maxRetryAfterMs);
  const exponential = Math.min(options.baseDelayMs * 2 ** (retry - 1), options.maxDelayMs);
  return Math.round(exponential * (1 - 0.25 * options.random()));
}

/** Resolves after `ms`, or rejects with an 'aborted' ProviderError as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ProviderError('aborted', 'The request was cancelled.'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'The request was cancelled.'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What every HTTP provider is constructed with; each adds its own fields. */
export interface ProviderConnectionOptions {
  /** Anthropic: x-api-key / bearer; OpenAI-compatible: `Authorization: Bearer` (local servers accept anything). */
  apiKey: string;
  baseUrl?: string;
  /** Retries after the first attempt (ours, not an SDK's). Default 4. */
  maxRetries?: number;
  /** No progress (no response, or only pings and empty deltas) for this long aborts the attempt with kind 'timeout'. Default 90 s. */
  streamIdleTimeoutMs?: number;
  /** One call, every retry included, ends with a 'timeout' error after this long. Default 30 min. */
  callTimeoutMs?: number;
  /** Backoff tuning; tests inject a tiny base delay. */
  backoff?: Partial<BackoffOptions>;
  /** The runtime's environment (its proxy variables are read from it); absent: none set. */
  env?: Readonly<Record<string, string | undefined>>;
}

export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
