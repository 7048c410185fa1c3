/**
 * `gemini-cli`: google-gemini/gemini-cli's chat compression and tool-output masking (packages/core/src, read at
 * commit 5411f113). Both run before every request of a turn (core/client.ts: `tryCompressChat` at line 689, then
 * `tryMaskToolOutputs` at line 699, in the stream of each model call).
 *
 * Compression (context/chatCompressionService.ts):
 * - When: the previous request's prompt tokens reach DEFAULT_COMPRESSION_TOKEN_THRESHOLD = 0.5 of the model's
 *   token limit (line 41; `compress`, lines ~270–285).
 * - First every tool response beyond the newest COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET = 50,000 tokens of tool
 *   responses (counted newest first) is cut to 40,000 characters, its first 20% and last 80% around an omission
 *   marker (`truncateHistoryToBudget`, line 137; config.ts DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD = 40_000;
 *   utils/fileUtils.ts `formatTruncatedToolOutput`).
 * - Split (`findCompressSplitPoint`, line 60): the oldest 70% of the history's characters is compressed and the
 *   newest COMPRESSION_PRESERVE_THRESHOLD = 0.3 kept (line 47), split only before a user message that is not a tool
 *   response (a message the person typed). With no such point after the first message nothing is compressed:
 *   inside one long task gemini-cli cannot compress at all.
 * - Two summary calls: the state snapshot (the compression system prompt, the history to compress, an instruction),
 *   then a verification "probe" (the same, plus the snapshot and an instruction to re-check it; lines ~380–420).
 * - What survives: the snapshot as a user message, the model's "Got it. Thanks for the additional context!", then
 *   the kept 30% (with its cut tool responses). If that would be larger than the prompt it replaces, the history
 *   stays, and from then on only the truncation runs (COMPRESSION_FAILED_INFLATED_TOKEN_COUNT,
 *   `hasFailedCompressionAttempt` in core/client.ts `tryCompressChat`; lines ~460–470 of the service).
 *
 * Masking (context/toolOutputMaskingService.ts, on by default): skipping the newest message (the pending request is
 * not in the history it scans, and the newest history entry is protected), tool outputs are
 * counted newest first; once DEFAULT_TOOL_PROTECTION_THRESHOLD = 50,000 tokens are behind, every older output not
 * yet masked is prunable; if they sum to at least DEFAULT_MIN_PRUNABLE_TOKENS_THRESHOLD = 30,000 tokens each is
 * replaced by a short note with its first and last 250 characters (lines 25–27, `mask`). (Shell outputs get a
 * shell-specific preview there; the replay uses the general head + tail preview for all.)
 */
import { ChatStrategy, summaryInstruction, tokensOfMessages, type ChatMessage } from '../chat-strategy.js';
import { standInSummary, type StrategyEvent, type StrategyName, type StrategyOptions } from '../strategy.js';

export const GEMINI_COMPRESSION_THRESHOLD = 0.5;
export const GEMINI_PRESERVE_FRACTION = 0.3;
export const GEMINI_FUNCTION_RESPONSE_BUDGET = 50_000;
export const GEMINI_TRUNCATE_TOOL_OUTPUT_CHARS = 40_000;
export const GEMINI_MASK_PROTECT_TOKENS = 50_000;
export const GEMINI_MASK_MIN_PRUNABLE_TOKENS = 30_000;
export const GEMINI_MASK_PREVIEW_CHARS = 250;
export const GEMINI_ACK = 'Got it. Thanks for the additional context!';
const PROBE = 'Critically evaluate the snapshot you just generated and give a final, improved one.';

/** `formatTruncatedToolOutput`: the first 20% and last 80% of `maxChars` around an omission marker. */
export function truncateToolOutput(text: string, maxChars = GEMINI_TRUNCATE_TOOL_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.2);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return `Output too large. Showing first ${head} and last ${tail} characters.\n${text.slice(0, head)}\n\n... [${omitted} characters omitted] ...\n\n${text.slice(-tail)}`;
}

/** `truncateHistoryToBudget`: tool outputs beyond the newest 50,000 tokens of them are cut (new objects). */
export function truncateToBudget(messages: readonly ChatMessage[]): ChatMessage[] {
  let used = 0;
  const result = [...messages];
  for (let index = result.length - 1; index >= 0; index -= 1) {
    const message = result[index];
    if (message?.role !== 'tool') continue;
    const tokens = tokensOfMessages([message]);
    if (used + tokens > GEMINI_FUNCTION_RESPONSE_BUDGET) {
      const cut = { ...message, text: truncateToolOutput(message.text) };
      result[index] = cut;
      used += tokensOfMessages([cut]);
    } else used += tokens;
  }
  return result;
}

/** `findCompressSplitPoint`: index of the oldest message to keep (0 = compress nothing, length = compress all). */
export function splitPoint(messages: readonly ChatMessage[], fraction = 1 - GEMINI_PRESERVE_FRACTION): number {
  const total = messages.reduce((sum, message) => sum + message.text.length, 0);
  const target = total * fraction;
  let lastSplit = 0;
  let cumulative = 0;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index];
    if (message?.role === 'user') {
      if (cumulative >= target) return index;
      lastSplit = index;
    }
    cumulative += message?.text.length ?? 0;
  }
  const last = messages.at(-1);
  return last?.role === 'assistant' && last.callsTool !== true ? messages.length : lastSplit;
}

/** `mask`: returns how many outputs were masked (the messages are replaced in place). */
export function maskToolOutputs(messages: ChatMessage[]): number {
  let protectedTokens = 0;
  let boundary = false;
  let prunableTokens = 0;
  const prunable: number[] = [];
  for (let index = messages.length - 2; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool' || message.shrunk === true) continue;
    const tokens = tokensOfMessages([message]);
    if (!boundary) {
      protectedTokens += tokens;
      if (protectedTokens <= GEMINI_MASK_PROTECT_TOKENS) continue;
      boundary = true;
    }
    prunableTokens += tokens;
    prunable.push(index);
  }
  if (prunableTokens < GEMINI_MASK_MIN_PRUNABLE_TOKENS) return 0;
  let masked = 0;
  for (const index of prunable) {
    const message = messages[index];
    if (message === undefined) continue;
    const text = message.text;
    const preview =
      text.length > GEMINI_MASK_PREVIEW_CHARS * 2
        ? `${text.slice(0, GEMINI_MASK_PREVIEW_CHARS)}\n... [TRUNCATED] ...\n${text.slice(-GEMINI_MASK_PREVIEW_CHARS)}`
        : text;
    const note = `<tool_output_masked>\nOutput of ${message.tool ?? 'a tool'} (${text.split('\n').length} lines) saved to a file.\n${preview}\n</tool_output_masked>`;
    if (note.length >= text.length) continue;
    messages[index] = { ...message, text: note, shrunk: true };
    masked += 1;
  }
  return masked;
}

export class GeminiCliStrategy extends ChatStrategy {
  readonly name: StrategyName = 'gemini-cli';
  /** Set once a compression came out larger than the prompt it replaced (`hasFailedCompressionAttempt`). */
  private failedBefore = false;

  constructor(options: StrategyOptions) {
    super(options);
  }

  protected beforeCall(): StrategyEvent[] {
    const events = this.compress();
    const masked = maskToolOutputs(this.messages);
    if (masked > 0) events.push({ kind: 'degradation', detail: `masked ${masked} tool outputs` });
    return events;
  }

  /**
   * gemini-cli compresses its chat history before it adds the pending request (the new user text, or the newest
   * tool response), so that message is neither split at nor summarised: it follows whatever is kept.
   */
  private compress(): StrategyEvent[] {
    if (this.lastRequestTokens < GEMINI_COMPRESSION_THRESHOLD * this.options.contextWindow) return [];
    const history = this.messages.slice(0, -1);
    const pending = this.messages.slice(-1);
    const truncated = truncateToBudget(history);
    if (this.failedBefore) {
      // After an inflated result gemini-cli only truncates (CONTENT_TRUNCATED), and only when that shrinks.
      if (tokensOfMessages(truncated) >= tokensOfMessages(history)) return [];
      this.messages = [...truncated, ...pending];
      return [{ kind: 'degradation', detail: 'tool responses truncated' }];
    }
    const split = splitPoint(truncated);
    if (split === 0) return [];
    const original = history.slice(0, split);
    const toSummarize = tokensOfMessages(original) < this.options.contextWindow ? original : truncated.slice(0, split);
    const instruction = summaryInstruction();
    const snapshot = standInSummary(split, this.name);
    const first = this.segments([...toSummarize, { role: 'user', text: instruction }], instruction);
    const probe = this.segments(
      [...toSummarize, { role: 'assistant', text: snapshot }, { role: 'user', text: PROBE }],
      instruction,
    );
    const next: ChatMessage[] = [
      { role: 'summary', text: snapshot },
      { role: 'assistant', text: GEMINI_ACK },
      ...truncated.slice(split),
      ...pending,
    ];
    const calls = [this.summaryCall(first), this.summaryCall(probe)];
    // gemini-cli counts the new history without the pending request against the previous prompt.
    if (this.requestTokens(next.slice(0, -1)) > this.lastRequestTokens) {
      // COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: the calls were made, the history stays, no summary is tried again.
      this.failedBefore = true;
      return calls;
    }
    this.messages = next;
    this.lastRequestTokens = this.requestTokens();
    return [...calls, { kind: 'compaction' }];
  }
}
