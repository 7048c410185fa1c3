import { describe, expect, it } from 'vitest';
import { PrefixCache, tokensOfChars, weightedCost, LOOKBACK_SEGMENTS } from '../../bench/replay/prefix-cache.js';
import { estimateTokens } from '../../src/context/token-budget.js';

const seg = (chars: number, fill: string, cacheBreakpoint = false) => ({ text: fill.repeat(chars), cacheBreakpoint });

describe('PrefixCache', () => {
  it('uses the one estimator: floor(chars / 3)', () => {
    for (const chars of [0, 1, 2, 3, 299, 300, 301])
      expect(tokensOfChars(chars)).toBe(estimateTokens('x'.repeat(chars)));
  });

  it('first request writes up to its last breakpoint; the tail is uncached', () => {
    const cache = new PrefixCache();
    const account = cache.request([seg(300, 's', true), seg(600, 'a', true), seg(90, 't')]);
    expect(account).toMatchObject({ tokens: 330, read: 0, written: 300, uncached: 30 });
    expect(account.weighted).toBeCloseTo(1.25 * 300 + 30);
  });

  it('an identical request reads everything up to its last breakpoint', () => {
    const cache = new PrefixCache();
    const request = [seg(300, 's', true), seg(600, 'a', true), seg(90, 't')];
    cache.request(request);
    const again = cache.request(request);
    expect(again).toMatchObject({ read: 300, written: 0, uncached: 30 });
    expect(again.weighted).toBeCloseTo(0.1 * 300 + 30);
  });

  it('a grown conversation reads the previous breakpoint prefix at a block boundary and writes the rest', () => {
    const cache = new PrefixCache();
    cache.request([seg(300, 's', true), seg(300, 'a', true)]);
    const grown = cache.request([seg(300, 's', true), seg(300, 'a'), seg(150, 'b'), seg(150, 'c', true)]);
    expect(grown).toMatchObject({ tokens: 300, read: 200, written: 100, uncached: 0 });
  });

  it('a changed early segment only reads the part before it', () => {
    const cache = new PrefixCache();
    cache.request([seg(300, 's', true), seg(300, 'a', true)]);
    const changed = cache.request([seg(300, 's', true), seg(300, 'z', true)]);
    expect(changed).toMatchObject({ read: 100, written: 100 });
  });

  it('a prefix that ends inside a block of the new request is not a hit (same text, other blocks)', () => {
    const cache = new PrefixCache();
    cache.request([seg(300, 's', true), seg(300, 'a', true)]);
    const merged = cache.request([
      seg(300, 's', true),
      { text: 'a'.repeat(300) + 'b'.repeat(300), cacheBreakpoint: true },
    ]);
    expect(merged).toMatchObject({ read: 100, written: 200 });
  });

  it('looks back at most LOOKBACK_SEGMENTS blocks from a breakpoint', () => {
    const cache = new PrefixCache();
    const head = [seg(30, 's', true), seg(30, 'a', true)];
    cache.request(head);
    const many = Array.from({ length: LOOKBACK_SEGMENTS + 1 }, (_, index) =>
      seg(3, String.fromCharCode(98 + (index % 20))),
    );
    const far = cache.request([
      ...head.map((entry) => ({ ...entry, cacheBreakpoint: false })),
      ...many.slice(0, -1),
      { ...many[0]!, cacheBreakpoint: true },
    ]);
    // The request's only breakpoint is LOOKBACK_SEGMENTS+1 blocks after the cached prefix: miss.
    expect(far.read).toBe(0);
    const near = cache.request([
      ...head.map((entry) => ({ ...entry, cacheBreakpoint: false })),
      ...many.slice(0, 3),
      { ...many[3]!, cacheBreakpoint: true },
    ]);
    expect(near.read).toBe(20);
  });

  it('weightedCost applies 0.1 / 1.25 / 1', () => {
    expect(weightedCost(1000, 100, 10)).toBeCloseTo(100 + 125 + 10);
  });
});
