/**
 * `set_max_thinking_tokens {max_thinking_tokens, thinking_display?}` (`Query.setMaxThinkingTokens`): mca's thinking
 * budget is the config's `thinking` ('off' or 1024..64000 tokens), which the agent reads at every model request
 * (code-agent.ts), so the change holds from the next request on. 0 turns thinking off, null restores the budget the
 * session started with, other numbers are kept within the API's range. The budget only reaches the Anthropic
 * provider under the native tool protocol: elsewhere the request is accepted with one stderr line saying it has no
 * effect. `thinking_display` has no meaning in mca (thinking is streamed as it comes): one stderr line.
 */
import type { Config } from '../config/config.js';

const MIN_BUDGET = 1_024;
const MAX_BUDGET = 64_000;

export function thinkingBudgetOf(value: unknown, atStart: Config['thinking']): Config['thinking'] {
  if (value === null || value === undefined) return atStart;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Error('set_max_thinking_tokens needs max_thinking_tokens: a number of tokens (0 = off) or null');
  }
  if (value === 0) return 'off';
  return Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.round(value)));
}

/** Applies the host's budget to `config`; returns the stderr lines (none when it takes effect as asked). */
export function setThinkingBudget(
  config: Config,
  request: { max_thinking_tokens?: unknown; thinking_display?: unknown },
  atStart: Config['thinking'],
): string[] {
  const budget = thinkingBudgetOf(request.max_thinking_tokens, atStart);
  config.thinking = budget;
  const lines: string[] = [];
  if (budget !== 'off' && (config.provider !== 'anthropic' || config.toolProtocol !== 'native')) {
    lines.push(
      `set_max_thinking_tokens: accepted, but mca's thinking budget only reaches the Anthropic provider with the native tool protocol (this session: ${config.provider}, ${config.toolProtocol})`,
    );
  }
  if (request.thinking_display !== undefined && request.thinking_display !== null) {
    lines.push(
      `set_max_thinking_tokens: thinking_display ${JSON.stringify(request.thinking_display)} is ignored (mca streams thinking as it comes)`,
    );
  }
  return lines;
}
