/**
 * The one base of every error mca throws. Contract: `code` is a stable UPPER_SNAKE string a program may branch on;
 * `message` is one line a person can act on (no stack trace, no secret). Code tells mca's errors apart with
 * `instanceof` (the subclass), never by reading a `code` field off an unknown value.
 *
 * `McaError.isInstance` also recognises an McaError made by another copy of this module (two bundles in one
 * process, a test importing src/ beside dist/): the marker is a registered symbol, shared by every copy.
 */
const MARKER: unique symbol = Symbol.for('mca.error');

export abstract class McaError extends Error {
  abstract readonly code: string;
  private readonly [MARKER] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** True for any McaError, from this copy of the module or another. */
  static isInstance(value: unknown): value is McaError {
    return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
  }
}

/** Node's own error code (`ENOENT`, `ECONNREFUSED`, `HPE_…`) of a thrown value; undefined for mca's errors. */
export function nodeErrorCode(error: unknown): string | undefined {
  if (McaError.isInstance(error)) return undefined;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
