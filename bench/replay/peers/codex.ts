/**
 * `codex`: OpenAI Codex CLI's auto-compaction (openai/codex, codex-rs).
 *
 * - When: once the tokens the last response reported (its input plus output) reach the model's auto-compact limit,
 *   by default 90% of the context window: `auto_compact_token_limit()` returns `(context_window * 9) / 10` when no
 *   lower limit is configured (codex-rs/protocol/src/openai_models.rs, `ModelInfo::auto_compact_token_limit`,
 *   lines 441–452 of a recent checkout; the line moves between releases). Codex checks before the next request
 *   of a turn, so the replay checks before every model call.
 * - The summary call: the whole history with the compaction prompt appended as a user message, sent like any
 *   request of the session (codex-rs/core/src/compact.rs, `run_compact_task_inner`); when it is too long for the
 *   window, the oldest items are removed one by one until it fits (same function, ContextWindowExceeded branch).
 * - What survives: the initial context (system and instructions), then the user messages of the history, newest
 *   first, up to 20,000 tokens (the one that does not fit is cut to the rest), in their order, then the summary as a
 *   user message (compact.rs: `COMPACT_USER_MESSAGE_MAX_TOKENS = 20_000`, `collect_user_messages`,
 *   `build_compacted_history_with_limit`). Earlier summaries are not user messages; tool calls and results leave.
 */
import { ChatStrategy, summaryInstruction, tokensOfMessages, type ChatMessage } from '../chat-strategy.js';
import { standInSummary, type StrategyEvent, type StrategyName, type StrategyOptions } from '../strategy.js';

export const CODEX_USER_MESSAGE_MAX_TOKENS = 20_000;

export class CodexStrategy extends ChatStrategy {
  readonly name: StrategyName = 'codex';
  private readonly limit: number;

  constructor(options: StrategyOptions) {
    super(options);
    // Integer arithmetic as codex does it: 90% of the window.
    this.limit = Math.floor((options.contextWindow * 9) / 10);
  }

  protected beforeCall(): StrategyEvent[] {
    if (this.lastRequestTokens + this.lastOutputTokens < this.limit) return [];
    const prompt: ChatMessage = { role: 'user', text: summaryInstruction() };
    let history = [...this.messages];
    while (history.length > 1 && this.requestTokens([...history, prompt]) > this.options.contextWindow) {
      history = history.slice(1);
    }
    const summary = this.summaryCall(this.segments([...history, prompt]));
    this.messages = [
      ...recentUserMessages(this.messages, CODEX_USER_MESSAGE_MAX_TOKENS),
      { role: 'summary', text: standInSummary(this.messages.length, this.name) },
    ];
    this.lastRequestTokens = this.requestTokens();
    this.lastOutputTokens = 0;
    return [summary, { kind: 'compaction' }];
  }
}

/** The user messages (not summaries), newest first up to `maxTokens` (the one that does not fit is cut), in order. */
export function recentUserMessages(messages: readonly ChatMessage[], maxTokens: number): ChatMessage[] {
  const selected: ChatMessage[] = [];
  let remaining = maxTokens;
  for (let index = messages.length - 1; index >= 0 && remaining > 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user' || message.tool !== undefined) continue;
    const tokens = tokensOfMessages([message]);
    if (tokens <= remaining) {
      selected.unshift(message);
      remaining -= tokens;
    } else {
      selected.unshift({ role: 'user', text: `${message.text.slice(0, remaining * 3)}…tokens truncated…` });
      break;
    }
  }
  return selected;
}
