/**
 * A session's tokens and dollars for `/cost` and the status line, per model: each call is priced at the rates of
 * the model that made it (a `/model` switch never re-prices the past). Prices come from the shared table
 * (src/providers/model-prices.ts); a model it does not know shows tokens only, never a guessed price. Usage
 * recorded before calls named their model ('' key) is priced at the current model, as it always was.
 */
import { usageByModel, type UsageByModel } from '../context/archived-usage.js';
import type { Message } from '../context/message.js';
import { usageDollars, type ModelPrice } from '../providers/model-prices.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';

export type { UsageByModel } from '../context/archived-usage.js';
export { addModelUsage } from '../context/archived-usage.js';

/** What a (resumed) session had already spent, archived rounds included, per model. */
export function usageOfHistory(messages: readonly Message[]): UsageByModel {
  return usageByModel(messages);
}

/** All models together. */
export function totalUsage(byModel: Readonly<UsageByModel>): Usage {
  return Object.values(byModel).reduce((total, usage) => addUsage(total, usage), { ...ZERO_USAGE });
}

export interface ModelCostLine {
  model: string;
  usage: Usage;
  /** Undefined when the model has no known price. */
  dollars: number | undefined;
}

/** One line per model that was used (the unrecorded '' share under `currentModel`), and the priced total. */
export function costByModel(
  byModel: Readonly<UsageByModel>,
  currentModel: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): { lines: ModelCostLine[]; total: number | undefined } {
  let merged: Record<string, Usage> = {};
  for (const [model, usage] of Object.entries(byModel)) {
    const name = model === '' ? currentModel : model;
    merged = { ...merged, [name]: addUsage(merged[name] ?? ZERO_USAGE, usage) };
  }
  const lines = Object.entries(merged).map(([model, usage]) => ({
    model,
    usage,
    dollars: dollarsOf(usage, model, overrides),
  }));
  const priced = lines.filter((line) => line.dollars !== undefined);
  const total = priced.length === 0 ? undefined : priced.reduce((sum, line) => sum + (line.dollars ?? 0), 0);
  return { lines, total };
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
