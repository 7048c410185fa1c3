/**
 * Dollar pricing of every call (BENCHMARKS.md "Cost"): the prompt-cache account of its request plus its output
 * tokens, at the prices of one current Claude model from src/providers/model-prices.ts (input $3, output $15 per
 * million tokens; cache writes 1.25× and reads 0.1× the input price).
 */
import { costOf, priceOf, type ModelPrice } from '../../src/providers/model-prices.js';
import type { CacheAccount } from './prefix-cache.js';

/** The model whose prices the replay uses (a Sonnet; only the ratios between the prices shape the comparison). */
export const PRICED_MODEL = 'claude-sonnet-4-5';

export function replayPrice(): ModelPrice {
  const price = priceOf(PRICED_MODEL);
  if (price === undefined) throw new Error(`no price for ${PRICED_MODEL} in src/providers/model-prices.ts`);
  return price;
}

export interface CallTotals {
  calls: number;
  inputTokens: number;
  cacheRead: number;
  cacheWritten: number;
  uncached: number;
  outputTokens: number;
  dollars: number;
  peakRequest: number;
}

export function emptyTotals(): CallTotals {
  return {
    calls: 0,
    inputTokens: 0,
    cacheRead: 0,
    cacheWritten: 0,
    uncached: 0,
    outputTokens: 0,
    dollars: 0,
    peakRequest: 0,
  };
}

/** Dollars of one call: its cache account and its output tokens. */
export function callDollars(account: CacheAccount, outputTokens: number, price: ModelPrice = replayPrice()): number {
  return costOf(
    {
      input_tokens: account.uncached,
      output_tokens: outputTokens,
      cache_creation_input_tokens: account.written,
      cache_read_input_tokens: account.read,
    },
    price,
  );
}

export function addCall(totals: CallTotals, account: CacheAccount, outputTokens: number, price: ModelPrice): void {
  totals.calls += 1;
  totals.inputTokens += account.tokens;
  totals.cacheRead += account.read;
  totals.cacheWritten += account.written;
  totals.uncached += account.uncached;
  totals.outputTokens += outputTokens;
  totals.dollars += callDollars(account, outputTokens, price);
  totals.peakRequest = Math.max(totals.peakRequest, account.tokens);
}
