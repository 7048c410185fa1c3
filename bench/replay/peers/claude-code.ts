/**
 * `claude-code`: Claude Code's auto-compact, as its shipped CLI does it. Claude Code's source is not published;
 * the facts below come from its official docs and from published readings of the shipped bundle, each cited.
 *
 * - When: at the top of every query-loop iteration, i.e. before every model call, when the token count (the last
 *   API usage plus an estimate of the messages added since) reaches
 *   `window − min(maxOutputTokens, 20,000) − 13,000`
 *   (services/compact/autoCompact.ts: MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20_000 at line 30, getEffectiveContextWindowSize
 *   at lines 33–48, AUTOCOMPACT_BUFFER_TOKENS = 13_000; read in
 *   https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html and
 *   https://wiki.coder.dog/wiki-kb/wiki/sources/claude-code-compaction-policy/). At 200k with a 32k output limit
 *   that is 167,000 tokens (83.5%).
 * - The summary call: a separate system prompt ("You are a helpful AI assistant tasked with summarizing
 *   conversations."), the whole conversation, then the summary instructions as the last user message
 *   (https://gist.github.com/sam-saffron-jarvis/9d8e291c4e696ac7948702d6c4884448, v2.1.68). Not found: whether
 *   that request carries cache breakpoints; the replay uses the common chat layout (system and last message).
 * - What survives: the summary as one user message, then the most recently read files re-attached: at most 5
 *   files, at most 5,000 tokens each, at most 50,000 tokens in all (services/compact/compact.ts lines 122–131:
 *   POST_COMPACT_MAX_FILES_TO_RESTORE, POST_COMPACT_MAX_TOKENS_PER_FILE, POST_COMPACT_TOKEN_BUDGET; read in
 *   https://juejin.cn/post/7648915999019466761). The conversation itself, the current task's text included,
 *   survives only inside the summary (https://code.claude.com/docs/en/context-window, "What survives compaction").
 *   The replay re-attaches the newest recorded view of each file (it cannot re-read the disk).
 * - Not modelled: time-based microcompact (clears old tool results after an idle gap of about an hour; a replay has
 *   no idle time), and the feature-gated snip / context-collapse / session-memory paths.
 */
import { ChatStrategy, summaryInstruction, type ChatMessage } from '../chat-strategy.js';
import { standInSummary, type StrategyEvent, type StrategyName, type StrategyOptions } from '../strategy.js';

export const CLAUDE_CODE_AUTOCOMPACT_BUFFER = 13_000;
export const CLAUDE_CODE_SUMMARY_OUTPUT_RESERVE = 20_000;
export const CLAUDE_CODE_RESTORED_FILES = 5;
export const CLAUDE_CODE_RESTORED_FILE_TOKENS = 5_000;
export const CLAUDE_CODE_RESTORED_TOTAL_TOKENS = 50_000;
export const CLAUDE_CODE_SUMMARY_SYSTEM = 'You are a helpful AI assistant tasked with summarizing conversations.';

export function claudeCodeThreshold(contextWindow: number, maxOutputTokens: number): number {
  return contextWindow - Math.min(maxOutputTokens, CLAUDE_CODE_SUMMARY_OUTPUT_RESERVE) - CLAUDE_CODE_AUTOCOMPACT_BUFFER;
}

export class ClaudeCodeStrategy extends ChatStrategy {
  readonly name: StrategyName = 'claude-code';
  private readonly threshold: number;

  constructor(options: StrategyOptions) {
    super(options);
    this.threshold = claudeCodeThreshold(options.contextWindow, options.maxOutputTokens);
  }

  protected beforeCall(): StrategyEvent[] {
    // The last usage plus the new messages is the request as it would go out now (the estimator is the same).
    if (this.messages.length < 2 || this.requestTokens() < this.threshold) return [];
    const request = [...this.messages, { role: 'user' as const, text: summaryInstruction() }];
    const summary = this.summaryCall(this.segments(request, CLAUDE_CODE_SUMMARY_SYSTEM));
    this.messages = [
      { role: 'summary', text: standInSummary(this.messages.length, this.name) },
      ...restoredFiles(this.messages),
    ];
    return [summary, { kind: 'compaction' }];
  }
}

/** The newest view of each of the most recently read files, capped per file and in all (oldest-read first). */
export function restoredFiles(messages: readonly ChatMessage[]): ChatMessage[] {
  const restored: ChatMessage[] = [];
  const seen = new Set<string>();
  let budgetChars = CLAUDE_CODE_RESTORED_TOTAL_TOKENS * 3;
  for (let index = messages.length - 1; index >= 0 && restored.length < CLAUDE_CODE_RESTORED_FILES; index -= 1) {
    const message = messages[index];
    if (message?.readPath === undefined || seen.has(message.readPath)) continue;
    seen.add(message.readPath);
    const text = message.text.slice(0, Math.min(CLAUDE_CODE_RESTORED_FILE_TOKENS * 3, budgetChars));
    if (text.length === 0) break;
    budgetChars -= text.length;
    restored.unshift({ role: 'user', text, tool: 'Read', readPath: message.readPath });
  }
  return restored;
}
