/**
 * Turns whatever the Anthropic SDK (or the network under it) throws into a ProviderError whose message
 * is one line, actionable, and free of the API key.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { CONTEXT_TOO_LONG, oneLine, parseRetryAfter, rootCause } from './error-text.js';
import { ProviderError, type ProviderErrorKind } from './provider-error.js';

// Re-exported: callers and tests knew these helpers here before they became provider-neutral.
export { oneLine, parseRetryAfter, scrubSecrets } from './error-text.js';

function kindFromStatus(status: number, serverMessage: string): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if ((status === 400 || status === 413) && CONTEXT_TOO_LONG.test(serverMessage)) return 'context_too_long';
  return 'bad_request';
}

/** Errors sent as an SSE `error` event after a 200 carry only the error type. */
function kindFromType(type: string | null, serverMessage: string): ProviderErrorKind {
  switch (type) {
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'rate_limit_error':
      return 'rate_limit';
    case 'overloaded_error':
      return 'overloaded';
    case 'timeout_error':
      return 'timeout';
    case 'invalid_request_error':
      return CONTEXT_TOO_LONG.test(serverMessage) ? 'context_too_long' : 'bad_request';
    case 'not_found_error':
    case 'request_too_large':
      return 'bad_request';
    default:
      return 'server';
  }
}

function describe(kind: ProviderErrorKind, status: number | undefined, serverMessage: string): string {
  const code = status === undefined ? '' : ` (${status})`;
  switch (kind) {
    case 'auth':
      return `ANTHROPIC_API_KEY was rejected${code}: ${serverMessage}`;
    case 'rate_limit':
      return `Anthropic API rate limit reached${code}: ${serverMessage}`;
    case 'overloaded':
      return `Anthropic API is overloaded${code}: ${serverMessage}`;
    case 'server':
      return `Anthropic API server error${code}: ${serverMessage}`;
    case 'context_too_long':
      return `The prompt is too long for the model${code}: ${serverMessage}`;
    case 'timeout':
      return `Anthropic API request timed out${code}: ${serverMessage}`;
    default:
      return `Anthropic API rejected the request${code}: ${serverMessage}`;
  }
}

function fromApiError(error: APIError, secrets: readonly string[]): ProviderError {
  const serverMessage = oneLine(error.apiMessage ?? error.message, secrets) || 'no message';
  const status = error.status;
  const kind = status === undefined ? kindFromType(error.type, serverMessage) : kindFromStatus(status, serverMessage);
  const options: { status?: number; retryAfterMs?: number } = {};
  if (status !== undefined) options.status = status;
  const retryAfterMs = parseRetryAfter(error.headers);
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  return new ProviderError(kind, oneLine(describe(kind, status, serverMessage), secrets), options);
}

/** Maps an SDK or network failure. Abort and idle-timeout are decided by the caller, which knows why it aborted. */
export function toProviderError(error: unknown, secrets: readonly string[]): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError) return new ProviderError('aborted', 'The request was cancelled.');
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError('timeout', 'Anthropic API request timed out before a response arrived.');
  }
  if (error instanceof APIConnectionError) {
    const cause = oneLine(rootCause(error), secrets);
    return new ProviderError('network', `Could not reach the Anthropic API${cause ? ` (${cause})` : ''}.`);
  }
  if (error instanceof APIError) return fromApiError(error, secrets);
  // A body that breaks off mid-stream surfaces as a plain error from fetch (e.g. TypeError "terminated").
  const cause = oneLine(rootCause(error) || String(error), secrets);
  return new ProviderError('network', `Connection to the Anthropic API failed${cause ? ` (${cause})` : ''}.`);
}
