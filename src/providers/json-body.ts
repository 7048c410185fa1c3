/**
 * A request body encoder for long sessions (issue 42): the bytes of `Buffer.from(JSON.stringify(value))`, exactly,
 * but what the previous request also carried is not encoded again: an element of the top-level arrays (`messages`,
 * `system`, `tools`) equal to the previous request's at its place keeps its bytes, and a long string (a full tool
 * result, a history block) keeps its encoded literal wherever it moves. Each step so encodes about what is new.
 * Without it each step re-encoded the whole, growing history (a large part of a step's time late in a long turn).
 *
 * Only plain JSON data is expected (what the providers build: objects, arrays, strings, numbers, booleans, null);
 * anything else is left to JSON.stringify, so the output never differs from it.
 */

/** Strings at least this long are kept encoded; shorter ones cost less to encode than to look up. */
const MIN_CACHED_CHARS = 1_024;

const OPEN_BRACKET = Buffer.from('[');
const CLOSE_BRACKET = Buffer.from(']');
const COMMA = Buffer.from(',');
const NULL_BYTES = Buffer.from('null');

interface ListEntry {
  value: unknown;
  /** Where the element's bytes are in its list's bytes. */
  start: number;
  end: number;
}

/** A top-level array as the previous request carried it: its elements, and the array's bytes in that body. */
interface EncodedList {
  entries: ListEntry[];
  bytes: Buffer;
}

/** An array being encoded: its parts in order, their length, and where each element's bytes will be. */
interface ListParts {
  parts: Buffer[];
  length: number;
  entries: ListEntry[];
}

export class JsonBodyEncoder {
  /**
   * The long strings of the previous request: their encoded literal, or null for one seen there for the first time
   * (kept encoded only when a second request carries it too). Each request keeps only what it used, so what is held
   * is never more than one request's long strings.
   */
  private previous = new Map<string, Buffer | null>();
  private current = new Map<string, Buffer | null>();

  /**
   * The top-level object's arrays (`messages`, `system`, `tools`) in the previous request: an element equal to the one
   * at its place there is not encoded again (a long turn's older messages), and the run of equal elements at the start
   * is taken as one slice of the previous body (no element by element copy). What is held is one body's bytes.
   */
  private previousLists = new Map<string, EncodedList>();

  /**
   * `Buffer.from(JSON.stringify(value), 'utf8')`, byte for byte. Contract: what an earlier call was given is not
   * changed in place afterwards (each request is built anew; its strings and a call's input are shared, unchanged),
   * and the returned bytes are not written to (the next call reads slices of them).
   */
  encode(value: unknown): Buffer {
    try {
      return this.encodeBody(value);
    } catch (error) {
      // What JSON.stringify throws on (a BigInt, a cycle) leaves the previous request's lists half rewritten.
      this.previousLists = new Map();
      throw error;
    }
  }

  private encodeBody(value: unknown): Buffer {
    const lists = new Map<string, EncodedList>();
    let bytes: Buffer;
    if (!isPlainObject(value)) bytes = this.encodeValue(value);
    else {
      const parts: Buffer[] = [];
      let offset = 0;
      const placed: Array<{ key: string; list: ListParts; offset: number }> = [];
      const push = (part: Buffer) => {
        parts.push(part);
        offset += part.length;
      };
      let pending = '{';
      let first = true;
      for (const key of Object.keys(value)) {
        const field = value[key];
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        if (!Array.isArray(field)) {
          pending += JSON.stringify(field);
          continue;
        }
        push(Buffer.from(pending, 'utf8'));
        pending = '';
        const list = this.list(field, this.previousLists.get(key));
        placed.push({ key, list, offset });
        for (const part of list.parts) push(part);
      }
      push(Buffer.from(`${pending}}`, 'utf8'));
      // One copy of the whole body; each array's bytes are then a slice of it.
      bytes = Buffer.concat(parts, offset);
      for (const { key, list, offset: at } of placed) {
        lists.set(key, { entries: list.entries, bytes: bytes.subarray(at, at + list.length) });
      }
    }
    this.previousLists = lists;
    this.previous = this.current;
    this.current = new Map();
    return bytes;
  }

  /**
   * An array as JSON parts: the leading elements equal to the previous request's are one slice of its bytes, and any
   * later element equal to the one at its place there keeps its bytes too.
   */
  private list(items: readonly unknown[], before: EncodedList | undefined): ListParts {
    // The previous request's entries are not read again after this call: the equal ones are kept in place.
    const entries = before?.entries ?? [];
    let same = 0;
    while (same < items.length && same < entries.length && sameJson((entries[same] as ListEntry).value, items[same]))
      same += 1;
    const later = entries.splice(same);
    const parts: Buffer[] = [];
    let length = 0;
    const push = (part: Buffer) => {
      parts.push(part);
      length += part.length;
    };
    if (before !== undefined && same > 0) {
      // '[' and the equal leading elements with their commas, as they were.
      push(before.bytes.subarray(0, (entries[same - 1] as ListEntry).end));
      for (let index = 0; index < same; index += 1) (entries[index] as ListEntry).value = items[index];
    } else push(OPEN_BRACKET);
    for (let index = same; index < items.length; index += 1) {
      const item = items[index];
      const old = later[index - same];
      const bytes =
        before !== undefined && old !== undefined && sameJson(old.value, item)
          ? before.bytes.subarray(old.start, old.end)
          : this.encodeValue(item);
      if (index > 0) push(COMMA);
      entries.push({ value: item, start: length, end: length + bytes.length });
      push(bytes);
    }
    push(CLOSE_BRACKET);
    return { parts, length, entries };
  }

  /** One value, with the long strings' encoded literals reused. */
  private encodeValue(value: unknown): Buffer {
    // JSON.stringify writes null for an element it cannot represent.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return NULL_BYTES;
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

/**
 * Whether `a` and `b` encode to the same JSON, judged without encoding: the same primitives, arrays and plain objects
 * of equal parts (keys in the same order). Anything else counts as different (it is encoded again).
 */
function sameJson(a: unknown, b: unknown): boolean {
  // The same object (a long turn's older messages, kept from request to request) encodes the same: the contract of
  // JsonBodyEncoder.encode is that nothing it was given is changed in place.
  if (a === b) return typeof a !== 'function' && typeof a !== 'symbol';
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return a === b && typeof a !== 'function' && typeof a !== 'symbol';
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (key !== others[index] || !sameJson(a[key], b[key])) return false;
  }
  return true;
}

/** Objects JSON.stringify writes field by field (no toJSON, not a boxed primitive or other special object). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
