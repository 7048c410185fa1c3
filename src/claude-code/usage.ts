/**
 * Token and dollar totals as Claude Code reports them: `usage` (Anthropic's snake-case counters) and `modelUsage`
 * (per model, camelCase, with `costUSD`), priced from the shared table in src/providers/model-prices.ts — the one
 * the REPL's `/cost` uses. A model the table does not know costs 0 here (never a guessed price).
 */
import { usageDollars, type ModelPrice } from '../providers/model-prices.js';
import { addUsage, ZERO_USAGE, type Usage } from '../providers/types.js';
import type { CcModelUsage, CcUsage } from './types.js';

export function ccUsage(usage: Usage): CcUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    // mca's cache writes are all 5-minute ones (it never asks for the 1-hour lifetime).
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: usage.cacheCreationInputTokens },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    speed: 'standard',
    inference_geo: '',
    iterations: [],
    output_tokens_details: { thinking_tokens: 0 },
    fallback_credit: null,
  };
}

/** Dollars for `usage` at `model`'s price; 0 when the model has no known price. */
export function dollarsFor(usage: Usage, model: string, overrides?: Readonly<Record<string, ModelPrice>>): number {
  return usageDollars(usage, model, overrides) ?? 0;
}

export interface ModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
}

/** Usage per model over a whole session (a `set_model` mid-session gives a second row). */
export class ModelUsageLedger {
  private readonly rows = new Map<string, Usage>();

  constructor(
    private readonly limits: (model: string) => ModelLimits,
    private readonly overrides?: Readonly<Record<string, ModelPrice>>,
  ) {}

  add(model: string, usage: Usage): void {
    this.rows.set(model, addUsage(this.rows.get(model) ?? ZERO_USAGE, usage));
  }

  totalCost(): number {
    let total = 0;
    for (const [model, usage] of this.rows) total += dollarsFor(usage, model, this.overrides);
    return total;
  }

  modelUsage(): Record<string, CcModelUsage> {
    const out: Record<string, CcModelUsage> = {};
    for (const [model, usage] of this.rows) {
      out[model] = {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cacheReadInputTokens: usage.cacheReadInputTokens,
        cacheCreationInputTokens: usage.cacheCreationInputTokens,
        webSearchRequests: 0,
        costUSD: dollarsFor(usage, model, this.overrides),
        ...this.limits(model),
      };
    }
    return out;
  }
}
