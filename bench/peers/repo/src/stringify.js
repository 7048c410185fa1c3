import { defaultEncoder, isPlainObject } from './utils.js';

const DEFAULTS = {
  delimiter: '&',
  encoder: defaultEncoder,
  addQueryPrefix: false,
};

/** Appends the pairs of `value` under `prefix` (a bracket key for nested objects) to `out`. */
function collect(out, prefix, value, encoder) {
  if (value === undefined) return;
  if (value === null) {
    out.push(encoder(prefix));
    return;
  }
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) collect(out, `${prefix}[${key}]`, value[key], encoder);
    return;
  }
  out.push(`${encoder(prefix)}=${encoder(String(value))}`);
}

/**
 * Turns a plain object into a query string.
 *
 * @param {Record<string, unknown>} object
 * @param {object} [options]  see README.md
 * @returns {string}
 */
export function stringify(object, options = {}) {
  const settings = { ...DEFAULTS, ...options };
  if (!isPlainObject(object)) return '';
  const out = [];
  for (const key of Object.keys(object)) collect(out, key, object[key], settings.encoder);
  const joined = out.join(settings.delimiter);
  if (joined === '') return '';
  return settings.addQueryPrefix ? `?${joined}` : joined;
}
