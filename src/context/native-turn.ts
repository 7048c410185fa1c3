/**
 * The current turn as native tool-use messages (DESIGN.md "Tool protocol"): the scratchpad's steps, grouped by
 * the model reply that made them, become one assistant message (the reply's text, thinking and `tool_use` calls)
 * followed by one user message (each call's result paired by id, in the calls' order, `is_error` on failure). A
 * step without a call (a reply that was refused, e.g. cut at the output limit) is answered by user text. The
 * newest user message carries the cache breakpoint, so every step reuses the cached prefix.
 */
import type { ImagePart, ThinkingBlock, ToolCall, ToolResultBlock, TurnMessage } from '../providers/types.js';

/** What a scratchpad step knows about the native reply it came from. */
export interface NativeStep {
  /** The reply's number in the turn (the loop's step); steps of one reply share it. */
  reply: number;
  /** The reply's own text (shown once, on its assistant message). */
  replyText: string;
  /** The call this step made; absent for a reply that ran nothing. */
  call?: ToolCall;
  isError: boolean;
  thinking?: ThinkingBlock[];
}

export interface RenderedNativeStep {
  native: NativeStep;
  /** The observation as this build shows it (full, compressed or one-line, by the ladder). */
  observation: string;
  /** The result's images, only while the ladder shows the observation in full. */
  images?: readonly ImagePart[];
}

export function nativeTurnMessages(steps: readonly RenderedNativeStep[]): TurnMessage[] {
  const messages: TurnMessage[] = [];
  let index = 0;
  while (index < steps.length) {
    const first = steps[index];
    if (first === undefined) break;
    const reply = first.native.reply;
    const calls: ToolCall[] = [];
    const results: ToolResultBlock[] = [];
    const notes: string[] = [];
    while (index < steps.length && steps[index]?.native.reply === reply) {
      const step = steps[index] as RenderedNativeStep;
      if (step.native.call) {
        calls.push(step.native.call);
        const images = step.images !== undefined && step.images.length > 0 ? { images: step.images } : {};
        results.push({ id: step.native.call.id, content: step.observation, isError: step.native.isError, ...images });
      } else {
        notes.push(step.observation);
      }
      index += 1;
    }
    messages.push({
      role: 'assistant',
      text: first.native.replyText,
      calls,
      ...(first.native.thinking && first.native.thinking.length > 0 ? { thinking: first.native.thinking } : {}),
    });
    messages.push({ role: 'user', results, ...(notes.length > 0 ? { text: notes.join('\n\n') } : {}) });
  }
  const last = messages.at(-1);
  if (last?.role === 'user') last.cacheBreakpoint = true;
  return messages;
}
