/**
 * Turns what the Anthropic API answers (an HTTP error body, an SSE `error` event) or what the transport throws
 * into a ProviderError whose message is one line, actionable, and free of the API key. The messages are the ones
 * the SDK-based provider produced: the server's `error.message` when the body has one, else the SDK's
 * "<status> <body>" rendering.
 */
import { CONTEXT_TOO_LONG, oneLine, rootCause, statusOptions } from './error-text.js';
import type { HeaderLookup } from './header-lookup.js';
import { ProviderError, redirectedResponse, unsupportedBaseUrl, type ProviderErrorKind } from './provider-error.js';
import { isTransportError } from './transport-error.js';

// Re-exported: callers and tests knew these helpers here before they became provider-neutral.
export { oneLine, parseRetryAfter, scrubSecrets } from './error-text.js';

const API = 'The Anthropic API';

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
function kindFromType(type: string | undefined, serverMessage: string): ProviderErrorKind {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The API's error shape `{type: 'error', error: {type, message}}`, read from any JSON (or none). */
interface ServerError {
  type: string | undefined;
  /** `error.message` when the body has one. */
  apiMessage: string | undefined;
  /** The body as a whole: a top-level `message`, else the JSON itself, else the raw text. */
  whole: string;
}

function readServerError(text: string): ServerError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  const topMessage = isRecord(json) ? json.message : undefined;
  let whole = text;
  if (typeof topMessage === 'string' && topMessage !== '') whole = topMessage;
  else if (topMessage !== undefined && topMessage !== null && topMessage !== '') whole = JSON.stringify(topMessage);
  else if (json !== undefined && json !== null && json !== '' && json !== 0 && json !== false) {
    whole = JSON.stringify(json);
  }
  return {
    type: typeof error?.type === 'string' ? error.type : undefined,
    apiMessage: typeof error?.message === 'string' ? error.message : undefined,
    whole,
  };
}

function build(
  kind: ProviderErrorKind,
  status: number | undefined,
  serverMessage: string,
  headers: HeaderLookup | undefined,
  secrets: readonly string[],
): ProviderError {
  return new ProviderError(
    kind,
    oneLine(describe(kind, status, serverMessage), secrets),
    statusOptions(status, headers),
  );
}

/** A non-2xx response, from its status, headers (retry-after) and body text. */
export function errorFromResponse(
  status: number,
  headers: HeaderLookup,
  bodyText: string,
  secrets: readonly string[],
): ProviderError {
  const error = readServerError(bodyText);
  const whole = error.whole.trim() === '' ? 'status code (no body)' : error.whole;
  const serverMessage = oneLine(error.apiMessage ?? `${status} ${whole}`, secrets) || 'no message';
  return build(kindFromStatus(status, serverMessage), status, serverMessage, headers, secrets);
}

/** An SSE `error` event inside a 200 stream (e.g. overloaded mid-stream): its data, and the stream's headers. */
export function errorFromEvent(
  data: string,
  headers: HeaderLookup | undefined,
  secrets: readonly string[],
): ProviderError {
  const error = readServerError(data);
  const serverMessage = oneLine(error.apiMessage ?? error.whole, secrets) || 'no message';
  return build(kindFromType(error.type, serverMessage), undefined, serverMessage, headers, secrets);
}

/**
 * Maps a transport failure or anything else an attempt threw. Abort and idle-timeout are decided by the caller,
 * which knows why it aborted; `endpoint` names the base URL in a redirect message.
 */
export function toProviderError(error: unknown, secrets: readonly string[], endpoint = ''): ProviderError {
  if (error instanceof ProviderError) return error;
  if (isTransportError(error)) {
    if (error.failure === 'aborted') return new ProviderError('aborted', 'The request was cancelled.');
    if (error.failure === 'redirect') {
      const redirect = redirectedResponse(API, endpoint, 'ANTHROPIC_BASE_URL', error);
      return new ProviderError(redirect.kind, oneLine(redirect.message, secrets));
    }
    if (error.failure === 'protocol') {
      const refused = unsupportedBaseUrl(API, error.location ?? endpoint, 'ANTHROPIC_BASE_URL');
      return new ProviderError(refused.kind, oneLine(refused.message, secrets));
    }
    if (error.beforeResponse) {
      const cause = oneLine(rootCause(error), secrets);
      // An unusable proxy setting or a proxy's 4xx: retrying cannot help (a 'network' failure is retried).
      const kind = error.retryWorthy ? 'network' : 'bad_request';
      return new ProviderError(kind, `Could not reach the Anthropic API${cause ? ` (${cause})` : ''}.`);
    }
  }
  // A body that breaks off mid-stream, or anything unforeseen.
  const cause = oneLine(rootCause(error) || String(error), secrets);
  return new ProviderError('network', `Connection to the Anthropic API failed${cause ? ` (${cause})` : ''}.`);
}
