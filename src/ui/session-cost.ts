/**
 * A session's tokens and dollars for `/cost` and the status line. Prices come from the shared table
 * (src/providers/model-prices.ts); a model it does not know shows tokens only, never a guessed price.
 */
import type { Message } from '../context/message.js';
import { usageDollars, type ModelPrice } from '../providers/model-prices.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';

/** The usage stored with a session's assistant messages: what a resumed session had already spent. */
export function usageOfHistory(messages: readonly Message[]): Usage {
  let total: Usage = { ...ZERO_USAGE };
  for (const message of messages) if (message.metadata.usage) total = addUsage(total, message.metadata.usage);
  return total;
}

/** Dollars for `usage` at `model`'s price, or undefined when the model has no known price. */
export function dollarsOf(
  usage: Usage,
  model: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | undefined {
  return usageDollars(usage, model, overrides);
}

/** `$0.0421` under a dollar (cents matter there), `$1.23` above. */
export function formatDollars(dollars: number): string {
  return dollars < 1 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}
