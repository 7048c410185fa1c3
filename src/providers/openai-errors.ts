/**
 * Turns what an OpenAI-compatible server answers (error bodies, error chunks mid-stream) or what the transport
 * throws into a ProviderError whose message is one line, actionable, and free of the API key.
 * Servers differ in their error bodies: OpenAI `{error: {message, code}}`, Ollama `{error: "…"}`,
 * vLLM `{message, code}`, FastAPI `{detail}`; all are read.
 */
import { CONTEXT_TOO_LONG, oneLine, rootCause, statusOptions } from './error-text.js';
import type { HeaderLookup } from './http-transport.js';
import { ProviderError, redirectedResponse, unsupportedBaseUrl, type ProviderErrorKind } from './provider-error.js';
import { isTransportError } from './transport-error.js';

const API = 'OpenAI-compatible API';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface ServerError {
  message: string;
  /** e.g. 'context_length_exceeded', 'insufficient_quota'; some servers send an HTTP status number. */
  code: string | number | undefined;
}

/** Reads an error object or string in any of the shapes above. */
export function readServerError(value: unknown): ServerError {
  if (typeof value === 'string') return { message: value, code: undefined };
  if (!isRecord(value)) return { message: '', code: undefined };
  if (value.error !== undefined && value.error !== null) return readServerError(value.error);
  const text = [value.message, value.detail].find((field) => typeof field === 'string');
  const message = typeof text === 'string' ? text : value.detail !== undefined ? JSON.stringify(value.detail) : '';
  const code = typeof value.code === 'string' || typeof value.code === 'number' ? value.code : undefined;
  const type = typeof value.type === 'string' ? value.type : undefined;
  return { message, code: code ?? type };
}

function parseBody(text: string): ServerError {
  try {
    return readServerError(JSON.parse(text));
  } catch {
    // Not JSON: a proxy's HTML or plain-text page; its first words are still the best clue.
    return { message: text, code: undefined };
  }
}

function kindFromStatus(status: number, error: ServerError): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  // Retrying an exhausted quota only delays the same answer.
  if (status === 429) return error.code === 'insufficient_quota' ? 'bad_request' : 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (error.code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(error.message)) return 'context_too_long';
  return 'bad_request';
}

function describe(kind: ProviderErrorKind, status: number | undefined, serverMessage: string): string {
  const code = status === undefined ? '' : ` (${status})`;
  switch (kind) {
    case 'auth':
      return `OPENAI_API_KEY was rejected${code}: ${serverMessage}`;
    case 'rate_limit':
      return `${API} rate limit reached${code}: ${serverMessage}`;
    case 'server':
      return `${API} server error${code}: ${serverMessage}`;
    case 'context_too_long':
      return `The prompt is too long for the model${code}: ${serverMessage}`;
    case 'timeout':
      return `${API} request timed out${code}: ${serverMessage}`;
    default:
      return `${API} rejected the request${code}: ${serverMessage}`;
  }
}

/** A non-2xx response. A 404 usually means a base URL without its version path, so the message says so. */
export function errorFromResponse(
  status: number,
  headers: HeaderLookup,
  bodyText: string,
  secrets: readonly string[],
): ProviderError {
  const error = parseBody(bodyText);
  let serverMessage = oneLine(error.message, secrets) || 'no message';
  if (status === 404) serverMessage += ' (check OPENAI_BASE_URL: it must end with the API version path, e.g. /v1)';
  const kind = kindFromStatus(status, error);
  return new ProviderError(
    kind,
    oneLine(describe(kind, status, serverMessage), secrets),
    statusOptions(status, headers),
  );
}

/** An `{"error": …}` chunk inside a 200 stream (OpenRouter and vLLM report upstream failures this way). */
export function errorFromChunk(value: unknown, secrets: readonly string[]): ProviderError {
  const error = readServerError(value);
  const serverMessage = oneLine(error.message, secrets) || 'no message';
  let kind: ProviderErrorKind;
  if (typeof error.code === 'number') kind = kindFromStatus(error.code, error);
  else if (error.code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(error.message)) kind = 'context_too_long';
  else if (error.code === 'rate_limit_exceeded') kind = 'rate_limit';
  else kind = 'server';
  return new ProviderError(kind, oneLine(describe(kind, undefined, serverMessage), secrets));
}

/** No response to use: nothing listens, DNS, TLS, refused, or a redirect the transport does not follow. */
export function unreachableError(error: unknown, endpoint: string, secrets: readonly string[]): ProviderError {
  if (error instanceof ProviderError) return error;
  if (isTransportError(error) && error.failure === 'redirect') {
    const redirect = redirectedResponse(`The ${API}`, endpoint, 'OPENAI_BASE_URL', error);
    return new ProviderError(redirect.kind, oneLine(redirect.message, secrets));
  }
  if (isTransportError(error) && error.failure === 'protocol') {
    const refused = unsupportedBaseUrl(`The ${API}`, error.location ?? endpoint, 'OPENAI_BASE_URL');
    return new ProviderError(refused.kind, oneLine(refused.message, secrets));
  }
  const cause = oneLine(rootCause(error), secrets);
  // An unusable proxy setting or a proxy's 4xx: retrying cannot help (a 'network' failure is retried).
  const kind = isTransportError(error) && !error.retryWorthy ? 'bad_request' : 'network';
  return new ProviderError(
    kind,
    oneLine(`Could not reach the ${API} at ${endpoint}${cause ? ` (${cause})` : ''}.`, secrets),
  );
}

/** Anything else an attempt threw, typically a body that broke off mid-stream. */
export function toOpenAIProviderError(error: unknown, secrets: readonly string[]): ProviderError {
  if (error instanceof ProviderError) return error;
  const cause = oneLine(rootCause(error) || String(error), secrets);
  return new ProviderError('network', `Connection to the ${API} failed${cause ? ` (${cause})` : ''}.`);
}

/** The endpoint as shown in messages: no user info, no query. */
export function displayEndpoint(url: URL): string {
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
