/**
 * tiny-qs: parse and stringify URL query strings.
 *
 * The two entry points are re-exported here so that `import { parse, stringify } from 'tiny-qs'` works; the
 * helpers in utils.js are internal and may change between minor versions.
 */
export { parse } from './parse.js';
export { stringify } from './stringify.js';
export { defaultDecoder, defaultEncoder } from './utils.js';

export const version = '1.3.0';
