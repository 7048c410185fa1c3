import { McaError } from '../errors/mca-error.js';
export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'bad_request'
  | 'context_too_long'
  | 'network'
  | 'timeout'
  | 'aborted'
  /** A 2xx answer that is not the API (an HTML page from a proxy, a captive portal, a wrong base URL). */
  | 'not_api';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'network', 'timeout']);

/** Every failure a provider reports. `message` is one line a user can act on; it never contains a secret. */
export class ProviderError extends McaError {
  readonly code = 'PROVIDER_FAILED' as const;
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

/**
 * The check both providers run on a successful response before reading it as a stream: anything but
 * text/event-stream is not the model API, and retrying would only get the same page again.
 */
export function nonStreamResponse(
  api: string,
  endpoint: string,
  contentType: string | null,
): ProviderError | undefined {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return undefined;
  const what = type === '' ? 'a body without a content type' : type === 'text/html' ? 'an HTML page' : `${type}`;
  return new ProviderError(
    'not_api',
    `${api} at ${endpoint} answered with ${what} instead of an API stream; check the base URL (a proxy or login page may be in the way).`,
  );
}

/**
 * A redirect the transport does not follow (301/302/303, or too many hops): the base URL is out of date or
 * points at a login page. Retrying gets the same answer, so the user is told where it points.
 */
export function redirectedResponse(
  api: string,
  endpoint: string,
  variable: string,
  redirect: { status: number | undefined; location: string | undefined },
): ProviderError {
  const code = redirect.status === undefined ? '' : ` (${redirect.status})`;
  const where = redirect.location === undefined ? 'without saying where' : `to ${redirect.location}`;
  return new ProviderError(
    'not_api',
    `${api} at ${endpoint} redirected${code} ${where}; set ${variable} to the address it should use.`,
  );
}

/** A base URL that is not http(s) (e.g. `localhost:11434` without its scheme): retrying cannot help. */
export function unsupportedBaseUrl(api: string, url: string, variable: string): ProviderError {
  return new ProviderError(
    'bad_request',
    `${api} URL ${url} is not an http:// or https:// URL; write ${variable} with its scheme.`,
  );
}
