/**
 * Model usage a tool spent on its own (the Agent tool's nested session): it rides in the result's `stats` under
 * these keys, and the loop adds it to the turn's usage and reports it as a `usage` event, so a subagent's tokens
 * and cost count toward the session's. The parent's context size (`contextTokens`) is not changed by it.
 */
import { addUsage, type Usage } from '../providers/types.js';
import type { AgentEvent } from './events.js';
import type { ToolEnvelope } from '../tools/envelope.js';

const KEYS = {
  inputTokens: 'carriedInputTokens',
  outputTokens: 'carriedOutputTokens',
  cacheCreationInputTokens: 'carriedCacheCreationInputTokens',
  cacheReadInputTokens: 'carriedCacheReadInputTokens',
} as const satisfies Record<Exclude<keyof Usage, 'model'>, string>;

/** `usage` as result stats. */
export function carriedUsageStats(usage: Usage): Record<string, number> {
  return {
    [KEYS.inputTokens]: usage.inputTokens,
    [KEYS.outputTokens]: usage.outputTokens,
    [KEYS.cacheCreationInputTokens]: usage.cacheCreationInputTokens,
    [KEYS.cacheReadInputTokens]: usage.cacheReadInputTokens,
  };
}

/** The usage a result carries, or undefined when it carries none. */
export function carriedUsage(envelope: ToolEnvelope): Usage | undefined {
  const { stats } = envelope;
  const read = (key: string): number => (typeof stats[key] === 'number' ? stats[key] : 0);
  const usage: Usage = {
    inputTokens: read(KEYS.inputTokens),
    outputTokens: read(KEYS.outputTokens),
    cacheCreationInputTokens: read(KEYS.cacheCreationInputTokens),
    cacheReadInputTokens: read(KEYS.cacheReadInputTokens),
  };
  return Object.values(usage).some((value) => value > 0) ? usage : undefined;
}

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
    const usage = carriedUsage(next.value.result);
    if (usage === undefined) continue;
    turn.usage = addUsage(turn.usage, usage);
    yield { type: 'usage', step, usage, contextTokens };
  }
}
