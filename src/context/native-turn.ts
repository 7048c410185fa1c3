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

/** One reply's two messages as an earlier build made them, with what they were made from. */
interface ReplyMessages {
  steps: readonly RenderedNativeStep[];
  assistant: TurnMessage;
  user: TurnMessage;
}

/**
 * Each reply's messages by its first step, reused while the reply's steps show the same observations: a long turn's
 * older replies are then the same objects from build to build, and what converts and encodes them (the provider's
 * request mapping, json-body.ts) can tell they did not change without looking inside (issue 42).
 */
const replies = new WeakMap<NativeStep, ReplyMessages>();

function sameImages(a: readonly ImagePart[] | undefined, b: readonly ImagePart[] | undefined): boolean {
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  for (let index = 0; index < (a?.length ?? 0); index += 1) if (a?.[index] !== b?.[index]) return false;
  return true;
}

function sameSteps(cached: readonly RenderedNativeStep[], steps: readonly RenderedNativeStep[]): boolean {
  if (cached.length !== steps.length) return false;
  for (let index = 0; index < steps.length; index += 1) {
    const before = cached[index] as RenderedNativeStep;
    const now = steps[index] as RenderedNativeStep;
    if (before.native !== now.native || before.observation !== now.observation) return false;
    if (!sameImages(before.images, now.images)) return false;
  }
  return true;
}

function replyMessages(group: readonly RenderedNativeStep[]): ReplyMessages {
  const first = group[0] as RenderedNativeStep;
  const known = replies.get(first.native);
  if (known !== undefined && sameSteps(known.steps, group)) return known;
  const calls: ToolCall[] = [];
  const results: ToolResultBlock[] = [];
  const notes: string[] = [];
  for (const step of group) {
    if (step.native.call) {
      calls.push(step.native.call);
      const images = step.images !== undefined && step.images.length > 0 ? { images: step.images } : {};
      results.push({ id: step.native.call.id, content: step.observation, isError: step.native.isError, ...images });
    } else {
      notes.push(step.observation);
    }
  }
  const made: ReplyMessages = {
    steps: group,
    assistant: {
      role: 'assistant',
      text: first.native.replyText,
      calls,
      ...(first.native.thinking && first.native.thinking.length > 0 ? { thinking: first.native.thinking } : {}),
    },
    user: { role: 'user', results, ...(notes.length > 0 ? { text: notes.join('\n\n') } : {}) },
  };
  replies.set(first.native, made);
  return made;
}

/** Contract: the messages returned are not changed in place by the caller (older ones are shared between builds). */
export function nativeTurnMessages(steps: readonly RenderedNativeStep[]): TurnMessage[] {
  const messages: TurnMessage[] = [];
  let index = 0;
  while (index < steps.length) {
    const reply = steps[index]?.native.reply;
    let end = index + 1;
    while (end < steps.length && steps[end]?.native.reply === reply) end += 1;
    const group = steps.slice(index, end);
    const made = replyMessages(group);
    messages.push(made.assistant, made.user);
    index += group.length;
  }
  const last = messages.at(-1);
  if (last?.role === 'user') messages[messages.length - 1] = { ...last, cacheBreakpoint: true };
  return messages;
}

/**
 * A round closed since the last compaction, as native tool use sent it (DESIGN.md "No forgetting without pressure"):
 * its request block and its messages (replies, results, the closing reply), without cache breakpoints or images.
 */
export interface LiveNativeRound {
  question: string;
  turn: readonly TurnMessage[];
}

/**
 * The messages after the first user message when live rounds are shown: each live round's messages, each later
 * round's request as a user message, then the current request and this turn's messages. The newest user message
 * carries the cache breakpoint, so each request starts with the previous one.
 */
export function liveTurnMessages(
  live: readonly LiveNativeRound[],
  question: string | undefined,
  current: readonly TurnMessage[],
): TurnMessage[] {
  const messages = liveRoundMessages(live);
  if (question !== undefined) messages.push({ role: 'user', results: [], text: question });
  if (current.length > 0) return [...messages, ...current];
  const at = messages.findLastIndex((message) => message.role === 'user');
  const last = messages[at];
  if (last?.role === 'user') messages[at] = { ...last, cacheBreakpoint: true };
  return messages;
}

/** This turn's messages as a live round keeps them: no breakpoint, no images (history keeps their references). */
export function settledTurn(turn: readonly TurnMessage[]): TurnMessage[] {
  return turn.map((message) => {
    if (message.role === 'assistant') return message;
    const { cacheBreakpoint: _breakpoint, ...rest } = message;
    return { ...rest, results: message.results.map(({ images: _images, ...result }) => result) };
  });
}

/** A message's text as a measure and a plain rendering: a reply's words and calls, a user message's results. */
export function turnMessageText(message: TurnMessage): string {
  if (message.role === 'assistant') {
    const calls = message.calls.map((call) => ({ id: call.id, name: call.name, input: call.input }));
    return `${message.text}${calls.length > 0 ? `\n${JSON.stringify(calls)}` : ''}`;
  }
  return [...message.results.map((result) => result.content), ...(message.text ? [message.text] : [])].join('\n\n');
}

/** The live rounds' messages after the first round's request (which ends the first user message). */
export function liveRoundMessages(live: readonly LiveNativeRound[]): TurnMessage[] {
  const messages: TurnMessage[] = [];
  live.forEach((round, index) => {
    if (index > 0) messages.push({ role: 'user', results: [], text: round.question });
    messages.push(...round.turn);
  });
  return messages;
}
