import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from '../../src/providers/model-prices.js';

describe('model prices', () => {
  it('prices Claude families with cache writes at 1.25× and reads at 0.1× of input', () => {
    const sonnet = priceOf('claude-sonnet-5-5');
    // Dollars per million tokens are floating-point products (3 × 0.1 is 0.30000000000000004): compare to 10 decimals.
    expect(sonnet).toEqual({
      input: 3,
      output: 15,
      cacheWrite: expect.closeTo(3.75, 10),
      cacheRead: expect.closeTo(0.3, 10),
    });
    expect(priceOf('claude-opus-4-5')?.output).toBe(25);
    expect(priceOf('claude-opus-4-1')?.output).toBe(75);
    expect(priceOf('claude-haiku-4-5')?.input).toBe(1);
    expect(priceOf('anthropic/claude-sonnet-4')?.input).toBe(3);
  });

  it('knows no price for an unknown model, and an override wins for its exact name', () => {
    expect(priceOf('qwen2.5-coder:32b')).toBeUndefined();
    const mine = { input: 1, output: 2, cacheWrite: 1, cacheRead: 0.5 };
    expect(priceOf('qwen2.5-coder:32b', { 'qwen2.5-coder:32b': mine })).toBe(mine);
  });

  it('adds up every counter at its own price', () => {
    const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
    const cost = costOf(
      {
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cache_creation_input_tokens: 200_000,
        cache_read_input_tokens: 2_000_000,
      },
      price,
    );
    expect(cost).toBeCloseTo(3 + 1.5 + 0.75 + 0.6, 10);
  });
});
