export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'bad_request'
  | 'context_too_long'
  | 'network'
  | 'timeout'
  | 'aborted';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'network', 'timeout']);

/** Every failure a provider reports. `message` is one line a user can act on; it never contains a secret. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** Server-requested wait before retrying, from retry-after. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number } = {}) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
