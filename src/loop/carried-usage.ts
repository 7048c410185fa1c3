/**
 * Model usage a tool spent on its own (the Agent tool's nested session): it rides in the result's `stats`, per
 * model (src/tools/registry/carried-usage.ts), and the loop adds it to the turn's usage and reports it as `usage` events
 * naming their model, so a subagent's tokens and cost count toward the session's, priced at the model the subagent
 * ran on. The parent's context size (`contextTokens`) is not changed by it.
 */
import { addUsage, type Usage } from '../providers/types.js';
import { carriedUsage } from '../tools/registry/carried-usage.js';
import type { AgentEvent } from './events.js';

export { carriedUsage, carriedUsageStats } from '../tools/registry/carried-usage.js';

/**
 * Passes a step's events on; after each `tool_end` whose result carries usage, adds it to `turn.usage` and
 * reports it as a `usage` event (with the parent's own context size). Returns what the step returned.
 */
export async function* withCarriedUsage<Outcome>(
  events: AsyncGenerator<AgentEvent, Outcome>,
  turn: { usage: Usage },
  step: number,
  contextTokens: number,
): AsyncGenerator<AgentEvent, Outcome> {
  for (;;) {
    const next = await events.next();
    if (next.done === true) return next.value;
    yield next.value;
    if (next.value.type !== 'tool_end') continue;
    // One usage event per model, each with its model: fronts price it at that model's rates.
    for (const usage of carriedUsage(next.value.result)) {
      turn.usage = addUsage(turn.usage, usage);
      yield { type: 'usage', step, usage, contextTokens };
    }
  }
}
