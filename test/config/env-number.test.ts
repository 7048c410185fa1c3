import { describe, expect, it } from 'vitest';
import { positiveInteger, positiveNumber } from '../../src/config/env-number.js';

describe('numbers from the environment', () => {
  it('keep the default for unset, empty, zero, negative and non-numeric values', () => {
    for (const value of [undefined, '', '0', '-5', 'abc', 'Infinity', 'NaN']) {
      expect(positiveNumber(value, 7)).toBe(7);
      expect(positiveInteger(value, 7)).toBe(7);
    }
  });

  it('take a positive value; an integer cap refuses fractions', () => {
    expect(positiveNumber('1.5', 7)).toBe(1.5);
    expect(positiveInteger('1.5', 7)).toBe(7);
    expect(positiveInteger('65536', 7)).toBe(65536);
    expect(positiveNumber('30000', 7)).toBe(30000);
  });
});
