import { defaultDecoder, has, isPlainObject, positiveInteger, splitKey } from './utils.js';

const DEFAULTS = {
  delimiter: '&',
  depth: 5,
  parameterLimit: 1000,
  decoder: defaultDecoder,
};

/** Merges the caller's options over the defaults and checks them. */
function normalizeOptions(options = {}) {
  const merged = { ...DEFAULTS, ...options };
  if (typeof merged.delimiter !== 'string' || merged.delimiter === '') {
    throw new TypeError('delimiter must be a non-empty string');
  }
  if (typeof merged.decoder !== 'function') throw new TypeError('decoder must be a function');
  positiveInteger(merged.depth, 'depth');
  positiveInteger(merged.parameterLimit, 'parameterLimit');
  return merged;
}

/** Splits the input into [key, value] pairs, decoded, at most `parameterLimit` of them. */
function pairsOf(input, options) {
  const text = input.startsWith('?') ? input.slice(1) : input;
  if (text === '') return [];
  const pairs = [];
  for (const part of text.split(options.delimiter)) {
    if (pairs.length >= options.parameterLimit) break;
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([options.decoder(rawKey), options.decoder(rawValue)]);
  }
  return pairs;
}

/** Sets `value` at the path of `parts` inside `target`, creating objects on the way. */
function assign(target, parts, value) {
  let node = target;
  for (let index = 0; index < parts.length - 1; index++) {
    const part = parts[index];
    if (part === '__proto__' || part === 'constructor' || part === 'prototype') return;
    if (!has(node, part) || !isPlainObject(node[part])) node[part] = {};
    node = node[part];
  }
  const last = parts[parts.length - 1];
  if (last === '__proto__' || last === 'constructor' || last === 'prototype') return;
  node[last] = value;
}

/**
 * Parses a query string into a plain object.
 *
 * @param {string | undefined} input  e.g. `?a=1&b=2`
 * @param {object} [options]          see README.md
 * @returns {Record<string, unknown>}
 */
export function parse(input, options) {
  if (input === undefined) return {};
  if (typeof input !== 'string') throw new TypeError(`input must be a string, got ${typeof input}`);
  const settings = normalizeOptions(options);
  const result = {};
  for (const [key, value] of pairsOf(input, settings)) {
    assign(result, splitKey(key, settings.depth), value);
  }
  return result;
}
