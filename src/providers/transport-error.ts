/**
 * Why an HTTP exchange failed, as a typed value the providers' error mappers turn into one-line ProviderErrors.
 * `failure` is ours; `cause` keeps Node's own error (its `code`, e.g. ECONNREFUSED, is what the user sees).
 */
import { McaError, nodeErrorCode } from '../errors/mca-error.js';

export type TransportFailure =
  /** Nothing listens at the address (ECONNREFUSED). */
  | 'refused'
  /** The host name does not resolve (ENOTFOUND, EAI_AGAIN). */
  | 'dns'
  /** The TLS handshake failed: a certificate or protocol problem. */
  | 'tls'
  /** The connection broke before a response arrived (ECONNRESET, EPIPE, a socket hang-up, anything else). */
  | 'connection'
  /** The response started but its body broke off. */
  | 'body_cut'
  /** The body could not be decoded (a corrupt gzip/deflate/br stream). */
  | 'decode'
  /** A redirect the transport does not follow (301, 302, 303, or too many 307/308 hops). */
  | 'redirect'
  /** The URL is not http: or https: (a base URL written without its scheme, e.g. `localhost:11434`). */
  | 'protocol'
  /** The proxy refused the tunnel (CONNECT answered other than 2xx; `status` says how) or closed it early. */
  | 'proxy'
  /** The proxy variable is set but unusable (not a URL, or a scheme we do not speak, e.g. socks5://). */
  | 'proxy_setting'
  /** The caller's signal fired. */
  | 'aborted';

/** Failures that happened before any response: the server was never reached (or never answered). */
const BEFORE_RESPONSE: ReadonlySet<TransportFailure> = new Set(['refused', 'dns', 'tls', 'connection', 'proxy']);

export class TransportError extends McaError {
  readonly code = 'TRANSPORT_FAILED' as const;
  readonly failure: TransportFailure;
  /** For 'redirect': where the server pointed (absolute URL), when it said; for 'protocol': the URL refused. */
  readonly location: string | undefined;
  /** For 'redirect': the status that redirected; for 'proxy': the proxy's answer to CONNECT, when it answered. */
  readonly status: number | undefined;

  constructor(
    failure: TransportFailure,
    message: string,
    options: { cause?: unknown; location?: string; status?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.failure = failure;
    this.location = options.location;
    this.status = options.status;
  }

  /** True when the server was never reached or never answered (the providers say "could not reach"). */
  get beforeResponse(): boolean {
    return BEFORE_RESPONSE.has(this.failure);
  }

  /**
   * False when another attempt cannot help: the proxy setting is unusable, or the proxy refused the tunnel with a
   * 4xx (407 wants other credentials, 403 forbids the target), as the API's own 401/403 are not retried. A proxy
   * that is down, or answers 5xx, is worth retrying like a refused connection.
   */
  get retryWorthy(): boolean {
    if (this.failure === 'proxy_setting') return false;
    return !(this.failure === 'proxy' && this.status !== undefined && this.status >= 400 && this.status < 500);
  }
}

export function isTransportError(value: unknown): value is TransportError {
  return value instanceof TransportError;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

function failureOf(code: string | undefined): TransportFailure {
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code !== undefined && TLS_CODE.test(code)) return 'tls';
  return 'connection';
}

/** Node's error code (`ECONNREFUSED`, `HPE_…`) of a thrown value, if it has one. */
export function errorCode(error: unknown): string | undefined {
  return nodeErrorCode(error);
}

/** Classifies an error a request emitted before its response (socket, DNS, TLS). */
export function connectFailure(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const failure = failureOf(errorCode(error));
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(failure, message, { cause: error });
}

/** Classifies an error that broke a response body off; `inDecoder` when the decompressor, not the socket, failed. */
export function bodyFailure(error: unknown, inDecoder: boolean): TransportError {
  if (error instanceof TransportError) return error;
  if (inDecoder) return new TransportError('decode', 'the response body could not be decoded', { cause: error });
  return new TransportError('body_cut', 'the server closed the connection before the response was complete');
}
