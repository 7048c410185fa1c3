/**
 * A request body encoder for long sessions (issue 42): the bytes of `Buffer.from(JSON.stringify(value))`, exactly,
 * but the long strings in it (history blocks, full tool results, the system prompt) are escaped and encoded once and
 * reused by the next requests, which carry them again unchanged. Each step so escapes and encodes only what is new;
 * the rest is a copy of bytes already made. Without it each step re-encoded the whole, growing history (the largest
 * part of a step's time late in a long turn, and most of the garbage it left).
 *
 * Only plain JSON data is expected (what the providers build: objects, arrays, strings, numbers, booleans, null);
 * anything else is left to JSON.stringify, so the output never differs from it.
 */

/** Strings at least this long are kept encoded; shorter ones cost less to encode than to look up. */
const MIN_CACHED_CHARS = 1_024;

export class JsonBodyEncoder {
  /**
   * The long strings of the previous request: their encoded literal, or null for one seen there for the first time
   * (kept encoded only when a second request carries it too). Each request keeps only what it used, so what is held
   * is never more than one request's long strings.
   */
  private previous = new Map<string, Buffer | null>();
  private current = new Map<string, Buffer | null>();

  /** `Buffer.from(JSON.stringify(value), 'utf8')`, byte for byte. */
  encode(value: unknown): Buffer {
    const parts: Buffer[] = [];
    let pending = '';
    const flush = () => {
      if (pending !== '') parts.push(Buffer.from(pending, 'utf8'));
      pending = '';
    };
    const write = (item: unknown): void => {
      if (typeof item === 'string') {
        if (item.length < MIN_CACHED_CHARS) {
          pending += JSON.stringify(item);
          return;
        }
        const encoded = this.literal(item);
        if (encoded === undefined) {
          pending += JSON.stringify(item);
          return;
        }
        flush();
        parts.push(encoded);
      } else if (typeof item === 'object' && item !== null && !holdsLongString(item)) {
        // JSON.stringify itself is faster on small parts than any walk here.
        pending += JSON.stringify(item);
      } else if (Array.isArray(item)) {
        pending += '[';
        // Runs of elements without a long string go to JSON.stringify in one call (a history of many small messages).
        let run = 0;
        const flushRun = (end: number) => {
          if (end > run) pending += `${run > 0 ? ',' : ''}${JSON.stringify(item.slice(run, end)).slice(1, -1)}`;
        };
        for (let index = 0; index < item.length; index += 1) {
          const element: unknown = item[index];
          if (!holdsLongString(element)) continue;
          flushRun(index);
          if (index > 0) pending += ',';
          write(element);
          run = index + 1;
        }
        flushRun(item.length);
        pending += ']';
      } else if (isPlainObject(item)) {
        pending += '{';
        let first = true;
        for (const key of Object.keys(item)) {
          const field = item[key];
          if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
          pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
          first = false;
          write(field);
        }
        pending += '}';
      } else {
        pending += JSON.stringify(item) ?? 'null';
      }
    };
    write(value);
    flush();
    this.previous = this.current;
    this.current = new Map();
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  /** The encoded literal of a long string, when this or the previous request carried it before; else undefined. */
  private literal(text: string): Buffer | undefined {
    const known = this.current.get(text) ?? this.previous.get(text);
    if (known === undefined) {
      this.current.set(text, null);
      return undefined;
    }
    const encoded = known ?? Buffer.from(JSON.stringify(text), 'utf8');
    this.current.set(text, encoded);
    return encoded;
  }
}

/** True when a string worth reusing is somewhere in `value` (a walk without building anything). */
function holdsLongString(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= MIN_CACHED_CHARS;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (holdsLongString(value[index])) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (holdsLongString(record[key])) return true;
  return false;
}

/** Objects JSON.stringify writes field by field (no toJSON, not a boxed primitive or other special object). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
