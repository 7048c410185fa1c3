/**
 * Provider-neutral pieces of error reporting: secret scrubbing, one-line messages, retry-after parsing and
 * the root cause of a connection failure. No SDK is imported here, so every provider can use it cheaply.
 */

import type { HeaderLookup } from './header-lookup.js';
import { nodeErrorCode } from '../errors/mca-error.js';

const MAX_MESSAGE_CHARS = 500;

/**
 * Anything shaped like an API key, even one we were not told about: Anthropic (`sk-ant-…`) and OpenAI
 * (`sk-…`, `sk-proj-…`, `sk-svcacct-…`) keys. Twenty characters after `sk-` keeps ordinary words safe.
 */
const KEY_PATTERNS: readonly RegExp[] = [/sk-ant-[A-Za-z0-9_-]{8,}/g, /\bsk-[A-Za-z0-9_-]{20,}/g];

/** Replaces every occurrence of the given secrets (and anything shaped like a known API key). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, '[redacted]');
  return out;
}

/** One line, bounded, no secrets. */
export function oneLine(text: string, secrets: readonly string[]): string {
  const flat = scrubSecrets(text, secrets).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}

/**
 * `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date).
 * Returns undefined when neither header gives a usable non-negative wait.
 */
export function parseRetryAfter(headers: HeaderLookup | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '') {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The status and the server's requested wait (retry-after) a ProviderError carries, each only when known. */
export function statusOptions(
  status: number | undefined,
  headers: HeaderLookup | undefined,
): { status?: number; retryAfterMs?: number } {
  const options: { status?: number; retryAfterMs?: number } = {};
  if (status !== undefined) options.status = status;
  const retryAfterMs = parseRetryAfter(headers);
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  return options;
}

/** Server messages that mean "the prompt does not fit the model's window", across vendors. */
export const CONTEXT_TOO_LONG =
  /prompt is too long|context[ _](length|window)|too many (input )?tokens|maximum context|context_length_exceeded/i;

/** The innermost useful reason of a connection failure, e.g. "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443". */
export function rootCause(error: unknown): string {
  let current: unknown = error;
  let reason = '';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    // Node's codes only: mca's own errors (a TransportError in the chain) name their cause in the message.
    const code = nodeErrorCode(current);
    reason = code !== undefined ? `${code}: ${current.message}` : current.message;
    current = current.cause;
  }
  return reason;
}
