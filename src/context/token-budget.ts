/**
 * The one token estimator mca uses everywhere (spec A6): a character count divided by three, rounded down.
 * It is deliberately crude and stable; exact counts come from the provider's usage after each call.
 */
export function estimateTokens(text: string): number {
  return Math.floor(text.length / 3);
}

/** The token count at which compaction starts: `threshold × window`, e.g. 0.8 × 200,000 = 160,000. */
export function compressionLimit(contextWindow: number, threshold: number): number {
  return threshold * contextWindow;
}

/** Below this many messages a history is never compacted (spec A6). */
export const MIN_MESSAGES_FOR_COMPACTION = 3;

/**
 * Once something must shrink (older steps of this turn, older tool results in history), it shrinks down to this
 * share of the budget when it can, not just under it: every shrink rewrites the provider's cached prompt from the
 * first thing it changes, so the turns and steps after it get a quarter of the budget before the next one.
 */
export const LOW_WATER = 0.75;

/**
 * Within a turn the prompt may grow to this share of the window (spec A6's own 0.8) before this turn's steps or the
 * history shrink; the profile's threshold decides at the start of a turn. A shrink in the middle of a turn rewrites
 * the provider's cached prompt from the first thing it changes to the end, this turn's steps included; at the start
 * of the next turn only the new input follows it. A profile whose threshold is higher keeps its threshold.
 */
export const TURN_CEILING = 0.8;

export interface CompactTrigger {
  /** Total tokens of the previous model call (all four usage counters). */
  lastUsage: number;
  /** Text that will be added before the next call: the new user input or the new observations. */
  pendingText: string;
  messageCount: number;
  contextWindow: number;
  threshold: number;
}

/** Spec A6/C7: `lastUsage + floor(len(pending)/3) >= threshold × window`, and at least three messages. */
export function shouldCompact(trigger: CompactTrigger): boolean {
  if (trigger.messageCount < MIN_MESSAGES_FOR_COMPACTION) return false;
  const estimated = trigger.lastUsage + estimateTokens(trigger.pendingText);
  return estimated >= compressionLimit(trigger.contextWindow, trigger.threshold);
}
