import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from '../src/index.js';

test('stringifies simple pairs', () => {
  assert.equal(stringify({ a: 1, b: 'two' }), 'a=1&b=two');
});

test('encodes reserved characters', () => {
  assert.equal(stringify({ q: "it's (a) test!" }), 'q=it%27s%20%28a%29%20test%21');
});

test('skips undefined and keeps null as a bare key', () => {
  assert.equal(stringify({ a: undefined, b: null, c: 3 }), 'b&c=3');
});

test('nested objects use bracket keys', () => {
  assert.equal(stringify({ user: { name: 'ada' } }), 'user%5Bname%5D=ada');
});

test('addQueryPrefix and delimiter', () => {
  assert.equal(stringify({ a: 1, b: 2 }, { addQueryPrefix: true, delimiter: ';' }), '?a=1;b=2');
});

test('empty input gives an empty string', () => {
  assert.equal(stringify({}), '');
  assert.equal(stringify(null), '');
});
