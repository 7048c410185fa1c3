/**
 * Dollar prices per million tokens for known model families, so `/cost` and the bench price a session the same
 * way. Cache writes (5-minute lifetime) cost 1.25× the input price and cache reads 0.1×, as Anthropic bills them;
 * OpenAI bills cached prompt tokens at its own discount, given per row. A model matching no row has no price:
 * callers show tokens only rather than guess. Users can override rows in config (`modelPrices`). The REPL's `/cost`
 * and Claude Code's `total_cost_usd` / `modelUsage` (src/print) both price through `usageDollars`.
 */
import { catalogEntry } from '../config/model-catalog.js';
import type { Usage } from './types.js';

export interface ModelPrice {
  /** Dollars per million uncached input tokens. */
  input: number;
  /** Dollars per million output tokens. */
  output: number;
  /** Dollars per million tokens written to the prompt cache. */
  cacheWrite: number;
  /** Dollars per million tokens read from the prompt cache. */
  cacheRead: number;
}

export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

function anthropic(input: number, output: number): ModelPrice {
  // Divisions, not × 0.1: 3 × 0.1 is 0.30000000000000004 in floating point, 3 / 10 is 0.3.
  return { input, output, cacheWrite: (input * 5) / 4, cacheRead: input / 10 };
}

/** First match wins: more specific patterns stand before broader ones. */
const KNOWN_PRICES: ReadonlyArray<readonly [RegExp, ModelPrice]> = [
  [/claude-(?:3-)?opus-4-?[01]\b|claude-3-opus/, anthropic(15, 75)],
  [/claude-.*opus/, anthropic(5, 25)],
  [/claude-.*sonnet/, anthropic(3, 15)],
  [/claude-3-5-haiku|claude-3-haiku/, anthropic(0.8, 4)],
  [/claude-.*haiku/, anthropic(1, 5)],
  [/^gpt-4\.1-mini/, { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 }],
  [/^gpt-4\.1/, { input: 2, output: 8, cacheWrite: 2, cacheRead: 0.5 }],
  [/^gpt-5-mini/, { input: 0.25, output: 2, cacheWrite: 0.25, cacheRead: 0.025 }],
  [/^gpt-5/, { input: 1.25, output: 10, cacheWrite: 1.25, cacheRead: 0.125 }],
];

/**
 * The price of a model: an override for its exact name first, then the model catalog (the list `/model` offers and
 * the short names resolve into), then the family table; undefined if unknown.
 */
export function priceOf(model: string, overrides: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  const exact = overrides[model];
  if (exact) return exact;
  const listed = catalogEntry(model);
  if (listed) return listed.price;
  const name = model.toLowerCase().replace(/^.*\//, '');
  return KNOWN_PRICES.find(([pattern]) => pattern.test(name))?.[1];
}

/** Dollars for the given token counts at the given price. */
export function costOf(usage: TokenCounts, price: ModelPrice): number {
  const perToken = 1 / 1_000_000;
  return (
    usage.input_tokens * price.input * perToken +
    usage.output_tokens * price.output * perToken +
    (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite * perToken +
    (usage.cache_read_input_tokens ?? 0) * price.cacheRead * perToken
  );
}

/** Dollars for a session's `usage` at `model`'s price, or undefined when the model has no known price. */
export function usageDollars(
  usage: Usage,
  model: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | undefined {
  const price = priceOf(model, overrides);
  if (!price) return undefined;
  return costOf(
    {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_creation_input_tokens: usage.cacheCreationInputTokens,
      cache_read_input_tokens: usage.cacheReadInputTokens,
    },
    price,
  );
}
