/**
 * Keeps secrets out of everything mca passes on: tool output (before the model, the screen or the session sees
 * it), persisted records, and -p output. A leaf module so tools, session and cli share it.
 */

const REDACTED = '[REDACTED]';

/** Anything shaped like an Anthropic key, even one the writer was not told about. */
const ANTHROPIC_KEY = /sk-ant-[A-Za-z0-9_-]{8,}/g;

/** Secrets shorter than this are not treated as secrets: replacing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Replaces every occurrence of each secret, both raw and in its JSON-escaped form (so a serialized
 * record is covered too), and anything that looks like an Anthropic API key.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const escaped = JSON.stringify(secret).slice(1, -1);
    for (const form of new Set([secret, escaped])) out = out.split(form).join(REDACTED);
  }
  return out.replace(ANTHROPIC_KEY, REDACTED);
}

/** The same value with every string inside it (keys included) redacted; for tool envelopes and records. */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const redacted = redactSecrets(json, secrets);
  return redacted === json ? value : (JSON.parse(redacted) as T);
}
