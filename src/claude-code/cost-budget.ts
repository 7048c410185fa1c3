/**
 * `--max-budget-usd` (the Agent SDK's `maxBudgetUsd`): the session's cost, priced as the result's `total_cost_usd`
 * (the shared price table and config's `modelPrices`), checked before each model request; once it reached the
 * budget the turn ends before the request with MAX_BUDGET_USD (`error_max_budget_usd`). A model with no known price
 * costs 0, so a budget never stops it (mca never guesses a price).
 */
import type { AgentEvent } from '../loop/events.js';
import type { StepStop } from '../loop/session-settings.js';
import type { ModelPrice } from '../providers/model-prices.js';
import { ModelUsageLedger, type ModelLimits } from '../claude-code/usage.js';

export const MAX_BUDGET_USD = 'MAX_BUDGET_USD';

export class CostBudget {
  private readonly ledger: ModelUsageLedger;

  constructor(
    private readonly limitUsd: number,
    private readonly model: () => string,
    limits: (model: string) => ModelLimits,
    prices?: Readonly<Record<string, ModelPrice>>,
  ) {
    this.ledger = new ModelUsageLedger(limits, prices);
  }

  /** Counts a reply's usage (the agent's `usage` events; a subagent's name their own model). */
  note(event: AgentEvent): void {
    if (event.type === 'usage') this.ledger.add(event.usage.model ?? this.model(), event.usage);
  }

  /** The session driver's step guard: a stop once the cost reached the budget. */
  readonly guard = (): StepStop | undefined => {
    const spent = this.ledger.totalCost();
    if (spent < this.limitUsd) return undefined;
    const message = `Stopped: the session cost $${spent.toFixed(4)}, which reached --max-budget-usd $${this.limitUsd}.`;
    return { code: MAX_BUDGET_USD, message };
  };
}
