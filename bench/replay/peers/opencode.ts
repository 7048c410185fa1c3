/**
 * `opencode`: sst/opencode's session compaction (packages/opencode/src/session/, read at commit 31e22f65).
 *
 * - When: the tokens of the last finished step (input + output + cache) reach the usable window,
 *   `context − maxOutput − min(20,000, maxOutput)` (overflow.ts: COMPACTION_BUFFER = 20_000, `usable`,
 *   `isOverflow`), maxOutput being the model's output limit capped at 32,000 (provider/transform.ts:
 *   OUTPUT_TOKEN_MAX). The loop checks before its next step, so the replay checks before every model call.
 * - What survives (compaction.ts `select`, `splitTurn`, `preserveRecentBudget`): the summary, then a tail of the
 *   newest whole turns (a turn = a user message and what follows it) within
 *   `clamp(floor(usable × 0.25), 2,000, 15,000)` tokens (MIN/MAX_PRESERVE_RECENT_TOKENS); when the newest turn that
 *   does not fit can be cut, its newest messages that fit are kept (its user message then leaves); then, after an
 *   automatic compaction, a synthetic user message "Continue if you have next steps, or stop and ask for
 *   clarification if you are unsure how to proceed." (compaction.ts, `processCompaction`). Not checked in the source:
 *   whether the next request puts the summary before or after the kept tail; the replay puts it first.
 * - The summary call ("prepend" mode, the default): one user message holding the compaction prompt, the previous
 *   summary and the archived turns serialised as `[User]: …` / `[Assistant]: …` / `[Tool result]: …` with each tool
 *   result cut to 2,000 characters (TOOL_OUTPUT_MAX_CHARS, `serialize`); no system prompt and no tools.
 * - Pruning (`prune`): walks back from the newest message, skips the two newest user turns, stops at a summary or
 *   at an already pruned result, and once PRUNE_PROTECT = 40,000 tokens of tool output are behind it marks every
 *   older result "[Old tool result content cleared]" if that frees more than PRUNE_MINIMUM = 20,000 tokens. It runs
 *   after a prompt loop ends. At 31e22f65 it is off by default (`compaction.prune`, "default: false", in
 *   packages/core/src/v1/config/config.ts), so the bench runs `opencode` without it; `prune: true` turns it on.
 */
import { ChatStrategy, summaryInstruction, tokensOfMessages, type ChatMessage } from '../chat-strategy.js';
import { standInSummary, type StrategyEvent, type StrategyName, type StrategyOptions } from '../strategy.js';

export const OPENCODE_COMPACTION_BUFFER = 20_000;
export const OPENCODE_OUTPUT_TOKEN_MAX = 32_000;
export const OPENCODE_MIN_PRESERVE_RECENT_TOKENS = 2_000;
export const OPENCODE_MAX_PRESERVE_RECENT_TOKENS = 15_000;
export const OPENCODE_TOOL_OUTPUT_MAX_CHARS = 2_000;
export const OPENCODE_PRUNE_PROTECT = 40_000;
export const OPENCODE_PRUNE_MINIMUM = 20_000;
export const OPENCODE_PRUNED_TEXT = '[Old tool result content cleared]';
export const OPENCODE_CONTINUE =
  'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.';

export function opencodeUsable(contextWindow: number, maxOutputTokens: number): number {
  const output = Math.min(maxOutputTokens, OPENCODE_OUTPUT_TOKEN_MAX);
  return Math.max(0, contextWindow - output - Math.min(OPENCODE_COMPACTION_BUFFER, output));
}

export function opencodeTailBudget(usable: number): number {
  return Math.min(
    OPENCODE_MAX_PRESERVE_RECENT_TOKENS,
    Math.max(OPENCODE_MIN_PRESERVE_RECENT_TOKENS, Math.floor(usable * 0.25)),
  );
}

/** Index of the first message of the kept tail (messages.length when nothing is kept), by `select`. */
export function tailStart(messages: readonly ChatMessage[], budget: number): number {
  const starts = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  let total = 0;
  let keep = messages.length;
  for (let turn = starts.length - 1; turn >= 0; turn -= 1) {
    const start = starts[turn] ?? 0;
    const end = starts[turn + 1] ?? messages.length;
    const size = tokensOfMessages(messages.slice(start, end));
    if (total + size <= budget) {
      total += size;
      keep = start;
      continue;
    }
    // splitTurn: the earliest message after the turn's user message from which the rest of the turn fits.
    for (let from = start + 1; from < end; from += 1) {
      if (tokensOfMessages(messages.slice(from, end)) <= budget - total) {
        keep = from;
        break;
      }
    }
    break;
  }
  return keep === 0 ? messages.length : keep;
}

function serialize(message: ChatMessage): string {
  if (message.role === 'user') return `[User]: ${message.text}`;
  if (message.role === 'assistant') return `[Assistant]: ${message.text}`;
  const output =
    message.text.length <= OPENCODE_TOOL_OUTPUT_MAX_CHARS
      ? message.text
      : `${message.text.slice(0, OPENCODE_TOOL_OUTPUT_MAX_CHARS)}\n[truncated]`;
  return `[Tool result]: ${output}`;
}

export class OpencodeStrategy extends ChatStrategy {
  readonly name: StrategyName = 'opencode';
  private readonly usable: number;
  private pendingPrune = false;

  constructor(
    options: StrategyOptions,
    private readonly policy: { prune: boolean } = { prune: false },
  ) {
    super(options);
    this.usable = opencodeUsable(options.contextWindow, options.maxOutputTokens);
  }

  protected beforeCall(): StrategyEvent[] {
    const events: StrategyEvent[] = [];
    if (this.pendingPrune) {
      this.pendingPrune = false;
      const pruned = prune(this.messages);
      if (pruned > 0) events.push({ kind: 'degradation', detail: `pruned ${pruned} tool results` });
    }
    if (this.lastRequestTokens + this.lastOutputTokens < this.usable) return events;
    const previous = this.messages.filter((message) => message.role === 'summary').at(-1);
    const live = this.messages.filter((message) => message.role !== 'summary');
    const start = tailStart(live, opencodeTailBudget(this.usable));
    const head = live.slice(0, start);
    const prompt = [summaryInstruction(), previous?.text ?? '', ...head.map(serialize)].filter(Boolean).join('\n\n');
    events.push(this.summaryCall([{ text: prompt, cacheBreakpoint: true }]), { kind: 'compaction' });
    this.messages = [
      { role: 'summary', text: standInSummary(head.length, this.name) },
      ...live.slice(start),
      { role: 'user', text: OPENCODE_CONTINUE },
    ];
    this.lastRequestTokens = 0;
    this.lastOutputTokens = 0;
    return events;
  }

  protected override afterTurn(): void {
    if (this.policy.prune) this.pendingPrune = true;
  }
}

/** opencode's `prune` on the transcript; returns how many tool results it cleared. */
export function prune(messages: ChatMessage[]): number {
  let turns = 0;
  let total = 0;
  let pruned = 0;
  const toPrune: ChatMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message === undefined) continue;
    if (message.role === 'user') turns += 1;
    if (turns < 2) continue;
    if (message.role === 'summary') break;
    if (message.role !== 'tool') continue;
    if (message.shrunk === true) break;
    const tokens = tokensOfMessages([message]);
    total += tokens;
    if (total <= OPENCODE_PRUNE_PROTECT) continue;
    pruned += tokens;
    toPrune.push(message);
  }
  if (pruned <= OPENCODE_PRUNE_MINIMUM) return 0;
  for (const message of toPrune) {
    message.text = OPENCODE_PRUNED_TEXT;
    message.shrunk = true;
  }
  return toPrune.length;
}
