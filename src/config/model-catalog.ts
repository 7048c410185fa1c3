/**
 * The one list of models mca knows by name (issue 41): the `/model` picker, the short names (`sonnet`, `opus`,
 * `haiku`), the default model and the price table all read it, so they cannot disagree. Any other name may still be
 * typed; it is priced by family (src/providers/model-prices.ts) or shown in tokens only.
 */

export type CatalogProvider = 'anthropic' | 'openai';
export type ModelAlias = 'sonnet' | 'opus' | 'haiku';

/** Dollars per million tokens of one model. */
export interface CatalogPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface CatalogModel {
  id: string;
  provider: CatalogProvider;
  /** Claude Code's short name for the current model of this family, if this model is it. */
  alias?: ModelAlias;
  price: CatalogPrice;
}

/** Anthropic bills cache writes (5-minute lifetime) at 1.25x the input price and cache reads at 0.1x. */
function anthropicPrice(input: number, output: number): CatalogPrice {
  // Divisions, not × 0.1: 3 × 0.1 is 0.30000000000000004 in floating point, 3 / 10 is 0.3.
  return { input, output, cacheWrite: (input * 5) / 4, cacheRead: input / 10 };
}

/** Newest first within each provider; the first Anthropic model is the default. */
export const MODEL_CATALOG: readonly CatalogModel[] = Object.freeze([
  { id: 'claude-sonnet-5-5', provider: 'anthropic', alias: 'sonnet', price: anthropicPrice(3, 15) },
  { id: 'claude-opus-5-5', provider: 'anthropic', alias: 'opus', price: anthropicPrice(5, 25) },
  { id: 'claude-haiku-5-5', provider: 'anthropic', alias: 'haiku', price: anthropicPrice(1, 5) },
  { id: 'claude-sonnet-4-5', provider: 'anthropic', price: anthropicPrice(3, 15) },
  { id: 'claude-opus-4-1', provider: 'anthropic', price: anthropicPrice(15, 75) },
  { id: 'claude-haiku-4-5', provider: 'anthropic', price: anthropicPrice(1, 5) },
  { id: 'gpt-5', provider: 'openai', price: { input: 1.25, output: 10, cacheWrite: 1.25, cacheRead: 0.125 } },
  { id: 'gpt-5-mini', provider: 'openai', price: { input: 0.25, output: 2, cacheWrite: 0.25, cacheRead: 0.025 } },
  { id: 'gpt-4.1', provider: 'openai', price: { input: 2, output: 8, cacheWrite: 2, cacheRead: 0.5 } },
  { id: 'gpt-4.1-mini', provider: 'openai', price: { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 } },
]);

function onlyModel(predicate: (model: CatalogModel) => boolean): CatalogModel {
  const found = MODEL_CATALOG.find(predicate);
  if (!found) throw new Error('model catalog: an entry the code relies on is missing');
  return found;
}

/** The model a session uses when nothing names one: the catalog's first Anthropic model (Claude Code's `sonnet`). */
export const DEFAULT_MODEL: string = onlyModel((model) => model.alias === 'sonnet').id;

/** The model each short name stands for. */
export const MODEL_ALIASES: Readonly<Record<ModelAlias, string>> = Object.freeze({
  sonnet: onlyModel((model) => model.alias === 'sonnet').id,
  opus: onlyModel((model) => model.alias === 'opus').id,
  haiku: onlyModel((model) => model.alias === 'haiku').id,
});

/** The ids `/model` offers for a provider, in catalog order. */
export function catalogModels(provider: CatalogProvider): string[] {
  return MODEL_CATALOG.filter((model) => model.provider === provider).map((model) => model.id);
}

/** A model's catalog entry by exact id (case-insensitive, a provider prefix like `anthropic/` ignored). */
export function catalogEntry(id: string): CatalogModel | undefined {
  const name = id.toLowerCase().replace(/^.*\//, '');
  return MODEL_CATALOG.find((model) => model.id === name);
}

/** The picker's label of a model: its id, with its short name when it has one (`claude-opus-5-5 (opus)`). */
export function pickerLabel(id: string): string {
  const alias = catalogEntry(id)?.alias;
  return alias ? `${id} (${alias})` : id;
}
