import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from '../src/index.js';

test('parses simple pairs', () => {
  assert.deepEqual(parse('a=1&b=2'), { a: '1', b: '2' });
});

test('ignores a leading question mark', () => {
  assert.deepEqual(parse('?a=1'), { a: '1' });
});

test('decodes percent escapes and plus signs', () => {
  assert.deepEqual(parse('q=hello%20world&r=a+b'), { q: 'hello world', r: 'a b' });
});

test('keeps a malformed escape as written', () => {
  assert.deepEqual(parse('x=%E0%A4%A'), { x: '%E0%A4%A' });
});

test('a key without = gets the empty string', () => {
  assert.deepEqual(parse('flag&a=1'), { flag: '', a: '1' });
});

test('bracket keys nest', () => {
  assert.deepEqual(parse('user[name]=ada&user[lang]=en'), { user: { name: 'ada', lang: 'en' } });
});

test('depth limits nesting', () => {
  assert.deepEqual(parse('a[b][c][d]=1', { depth: 1 }), { a: { b: { '[c][d]': '1' } } });
});

test('parameterLimit caps the pairs', () => {
  assert.deepEqual(parse('a=1&b=2&c=3', { parameterLimit: 2 }), { a: '1', b: '2' });
});

test('custom delimiter', () => {
  assert.deepEqual(parse('a=1;b=2', { delimiter: ';' }), { a: '1', b: '2' });
});

test('refuses prototype pollution', () => {
  const result = parse('__proto__[polluted]=yes');
  assert.equal({}.polluted, undefined);
  assert.deepEqual(result, {});
});

test('rejects bad input and options', () => {
  assert.throws(() => parse(42), TypeError);
  assert.throws(() => parse('a=1', { depth: 0 }), RangeError);
  assert.throws(() => parse('a=1', { delimiter: '' }), TypeError);
});
