import { describe, expect, it } from 'vitest';
import { compressionLimit, estimateTokens, shouldCompact } from '../../src/context/token-budget.js';

describe('estimateTokens', () => {
  it('is floor(length / 3)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('ab')).toBe(0);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('x'.repeat(3001))).toBe(1000);
  });
});

describe('shouldCompact', () => {
  const base = { messageCount: 3, contextWindow: 1000, threshold: 0.8 };

  it('uses threshold × window as the limit', () => {
    expect(compressionLimit(200_000, 0.8)).toBe(160_000);
  });

  it('fires exactly at the boundary and not one token below', () => {
    expect(shouldCompact({ ...base, lastUsage: 797, pendingText: 'abcdefghi' })).toBe(true); // 797 + 3 = 800
    expect(shouldCompact({ ...base, lastUsage: 797, pendingText: 'abcdefgh' })).toBe(false); // 797 + 2 = 799
    expect(shouldCompact({ ...base, lastUsage: 800, pendingText: '' })).toBe(true);
    expect(shouldCompact({ ...base, lastUsage: 799, pendingText: '' })).toBe(false);
  });

  it('never fires below three messages', () => {
    expect(shouldCompact({ ...base, messageCount: 2, lastUsage: 10_000, pendingText: 'x'.repeat(9000) })).toBe(false);
    expect(shouldCompact({ ...base, messageCount: 0, lastUsage: 10_000, pendingText: '' })).toBe(false);
  });
});
