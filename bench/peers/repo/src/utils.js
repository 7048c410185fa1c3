/** Helpers shared by parse.js and stringify.js. */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Decodes one key or value: `+` is a space, percent escapes are decoded. A malformed escape (`%E0%A4%A`) is
 * kept as written instead of throwing, as browsers do.
 */
export function defaultDecoder(text) {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Encodes one key or value like encodeURIComponent, but keeps the characters RFC 3986 leaves unreserved. */
export function defaultEncoder(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** True for plain objects (not arrays, not null, not class instances such as Date). */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own enumerable property check that also works on objects created with Object.create(null). */
export function has(object, key) {
  return hasOwn.call(object, key);
}

/** Splits `a[b][c]` into ['a', 'b', 'c']; at most `depth` bracket segments, the rest kept as one key. */
export function splitKey(key, depth) {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const pattern = /\[([^[\]]*)\]/g;
  pattern.lastIndex = open;
  let match;
  let end = open;
  while ((match = pattern.exec(key)) !== null && parts.length <= depth) {
    if (match.index !== end) break;
    parts.push(match[1]);
    end = pattern.lastIndex;
  }
  if (end < key.length) parts.push(key.slice(end));
  return parts;
}

/** Checks that an option is a positive integer, with the option's name in the error. */
export function positiveInteger(value, name) {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
