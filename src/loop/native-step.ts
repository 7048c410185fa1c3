/**
 * One reply of native tool use (DESIGN.md "Tool protocol"): a reply without calls is the answer; a reply with
 * calls runs them all — consecutive read-only calls concurrently, every other call alone, in order, each asking
 * for its own approval — and every result is paired with its call's id, in the calls' order. History stores each
 * call as the text protocol does (assistant "Thought/Action" text + compressed tool message, the call id in both
 * messages' metadata), so L3, sessions, compaction and `-c` do not depend on the protocol.
 */
import type { ToolAction } from '../context/message.js';
import type { NativeStep } from '../context/native-turn.js';
import { shortenString, storedAction } from '../context/stored-action.js';
import type { StopReason, ThinkingBlock, ToolCall, Usage } from '../providers/types.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import { errorEnvelope } from '../tools/registry/envelope.js';
import type { AgentEvent } from './events.js';
import { newCallId } from './call-id.js';
import { formatAction, parseReply } from './react-protocol.js';
import { outputLimitMessage, type RoundOutcome, type StepServices, type TurnState } from './turn-state.js';
import { keepAnswerOnFailure } from './unsaved-answer.js';
import { finalToolOf, finalToolResult, missFinalTool } from './final-tool.js';

export interface NativeReply {
  text: string;
  calls: readonly ToolCall[];
  thinking: readonly ThinkingBlock[];
  usage: Usage;
  stopReason: StopReason;
}

/** Extra services of a native step: whether the person stopped the turn at a prompt (no further call runs). */
export interface NativeStepServices extends StepServices {
  stopped: () => boolean;
}

/** What tells the model an empty reply ran nothing. */
export const EMPTY_NATIVE_REPLY =
  'Your reply was empty: it had neither text nor a tool call. Call a tool to continue, or answer the user in text.';

/**
 * What a native-mode model is told when its reply wrote a tool call as text (the text protocol's action line)
 * instead of calling the tool: nothing ran, and how to do it the native way.
 */
export function protocolSlipNudge(tool: string): string {
  return (
    `Nothing ran: your reply wrote a call to ${tool} as text, in the ReAct text form, and text is never run in ` +
    `this session. Call ${tool} through the tool-calling interface instead (a tool call with its input as JSON), ` +
    'or, if you are done, answer in plain text.'
  );
}

/** A reply that wrote a tool call as text already got its nudge in this turn (one per turn). */
const slipNudged = new WeakSet<TurnState>();

/**
 * A protocol slip: a reply with no calls whose text ends in a text-protocol action naming a known tool (a
 * `Thought:` or a few words, then the `Action: Tool[{…}]` line, nothing after it). Returns the tool and the
 * thought, or undefined. A reply that merely quotes such a line amid other text stays an answer.
 */
function protocolSlip(text: string, isTool: (name: string) => boolean): { tool: string; thought: string } | undefined {
  const parsed = parseReply(text);
  if (parsed.kind !== 'action' || !isTool(parsed.action.tool)) return undefined;
  if (text.trim() !== parsed.text.trim()) return undefined;
  return { tool: parsed.action.tool, thought: parsed.thought };
}

/** The stored assistant text of one call: the reply's text as the Thought (first call only), then the Action. */
function storedStepText(thought: string, action: ToolAction): string {
  const text = thought.trim();
  return `${text === '' ? '' : `Thought: ${text}\n`}${formatAction(action)}`;
}

/** Runs one group: read-only calls concurrently, any other call alone. */
function callGroups(calls: readonly ToolCall[], isReadOnly: (name: string) => boolean): ToolCall[][] {
  const groups: ToolCall[][] = [];
  for (const call of calls) {
    const last = groups.at(-1);
    const first = last?.[0];
    if (last && first && isReadOnly(first.name) && isReadOnly(call.name)) last.push(call);
    else groups.push([call]);
  }
  return groups;
}

export async function* applyNativeReply(
  turn: TurnState,
  reply: NativeReply,
  step: number,
  services: NativeStepServices,
): AsyncGenerator<AgentEvent, RoundOutcome | undefined> {
  turn.steps = step;
  const { context, registry } = services;
  const thinking = reply.thinking.length > 0 ? { thinking: [...reply.thinking] } : {};
  const base = { step, usage: reply.usage };

  // A reply cut at the output limit may hold a call whose input was cut: nothing in it runs.
  const empty = reply.text.trim() === '' && reply.calls.length === 0;
  if (reply.stopReason === 'max_tokens' || empty) {
    const text = shortenString(reply.text.trim() === '' ? '(empty reply)' : reply.text);
    const observation = empty ? EMPTY_NATIVE_REPLY : outputLimitMessage(services.outputLimitTokens);
    context.recordReply({ step, text });
    yield { type: 'assistant_step', step, thought: '', action: null, raw: text };
    const native: NativeStep = { reply: step, replyText: text, isError: true, ...thinking };
    const envelope = errorEnvelope('INVALID_PARAM', observation);
    const action = { tool: 'ReAct', input: {} };
    const compressed = context.recordObservation({ step, assistantText: text, action, envelope, native });
    const id = newCallId();
    yield { type: 'tool_end', step, id, tool: action.tool, input: action.input, result: envelope, compressed };
    return empty
      ? turn.countInvalid('the reply was empty')
      : turn.countInvalid('the reply was cut at the output limit', 'OUTPUT_LIMIT');
  }
  const slip =
    reply.calls.length === 0 ? protocolSlip(reply.text, (name) => registry.get(name) !== undefined) : undefined;
  if (slip !== undefined) {
    // Never the answer: the first slip of a turn gets one nudge with the native way; a second ends the turn.
    if (slipNudged.has(turn)) {
      const message =
        'The model wrote tool calls as text instead of calling the tools, again after being told how; stopping.';
      context.recordReply({ ...base, text: slip.thought === '' ? '(a tool call written as text)' : slip.thought });
      return { reason: 'error', answer: message, error: { code: 'PROTOCOL_SLIP', message } };
    }
    slipNudged.add(turn);
    // The step shows the reply's words only: the text form is not echoed back into the prompt.
    const text = slip.thought === '' ? '(a tool call written as text; nothing ran)' : slip.thought;
    context.recordReply({ ...base, text });
    yield { type: 'assistant_step', step, thought: slip.thought, action: null, raw: text };
    const native: NativeStep = { reply: step, replyText: text, isError: true, ...thinking };
    const envelope = errorEnvelope('INVALID_PARAM', protocolSlipNudge(slip.tool));
    const action = { tool: 'ReAct', input: {} };
    const compressed = context.recordObservation({ step, assistantText: text, action, envelope, native });
    const id = newCallId();
    yield { type: 'tool_end', step, id, tool: action.tool, input: action.input, result: envelope, compressed };
    return turn.countInvalid('a tool call written as text');
  }
  const final = finalToolOf(registry);
  if (reply.calls.length === 0 && final) {
    // A final tool is the only way to end the turn: a reply in text is a miss, answered with the tool's nudge.
    const text = reply.text.trim() === '' ? `(a reply without the ${final.name} call)` : reply.text;
    context.recordReply({ ...base, text });
    yield { type: 'assistant_step', step, thought: '', action: null, raw: text };
    const native: NativeStep = { reply: step, replyText: text, isError: true, ...thinking };
    const envelope = errorEnvelope('INVALID_PARAM', final.final.nudge);
    const action = { tool: 'ReAct', input: {} };
    const compressed = context.recordObservation({ step, assistantText: text, action, envelope, native });
    yield { type: 'tool_end', step, id: newCallId(), tool: action.tool, input: {}, result: envelope, compressed };
    return missFinalTool(turn, final);
  }
  if (reply.calls.length === 0) {
    keepAnswerOnFailure(reply.text.trim(), () =>
      context.recordReply({ ...base, text: reply.text, roundEnd: 'answer' }),
    );
    yield { type: 'assistant_step', step, thought: '', action: null, raw: reply.text };
    return { reason: 'answer', answer: reply.text.trim() };
  }

  let first = true;
  let usageStored = false;
  let known = 0;
  for (const group of callGroups(reply.calls, (name) => registry.isReadOnly(name))) {
    if (services.stopped() || services.toolContext.signal.aborted) break;
    const stored = group.map((call) => {
      const { action } = storedAction({ tool: call.name, input: call.input });
      const text = storedStepText(first ? reply.text : '', action);
      const thought = first ? reply.text.trim() : '';
      first = false;
      return { call, action, text, thought };
    });
    // The repeated-call breaker judges each call before it runs (repeat-breaker.ts), in the reply's order.
    const verdicts = group.map((call) => turn.repeats.verdict({ tool: call.name, input: call.input }));
    for (const entry of stored) {
      yield { type: 'assistant_step', step, thought: entry.thought, action: entry.action, raw: entry.text };
      yield { type: 'tool_start', step, id: entry.call.id, tool: entry.call.name, input: entry.action.input };
    }
    const envelopes = await Promise.all(
      group.map((call, index) =>
        verdicts[index] === 'run'
          ? registry.run({ ...call, source: 'model' }, services.toolContext)
          : Promise.resolve(
              verdicts[index] === 'repeat'
                ? turn.repeats.repeatedEnvelope(call.name)
                : turn.repeats.stopEnvelope(call.name),
            ),
      ),
    );
    for (const [index, entry] of stored.entries()) {
      const envelope = envelopes[index] as ToolEnvelope;
      const native: NativeStep = {
        reply: step,
        replyText: reply.text,
        call: entry.call,
        isError: envelope.status === 'error',
        ...thinking,
      };
      // The call's usage is stored once, on the reply's first stored step.
      const usage = usageStored ? {} : { usage: reply.usage };
      usageStored = true;
      context.recordReply({ step, ...usage, text: entry.text, action: entry.action, callId: entry.call.id });
      const compressed = context.recordObservation({
        step,
        assistantText: entry.text,
        action: entry.action,
        envelope,
        native,
      });
      yield {
        type: 'tool_end',
        step,
        id: entry.call.id,
        tool: entry.action.tool,
        input: entry.action.input,
        result: envelope,
        compressed,
      };
      if (registry.get(entry.call.name) !== undefined) known += 1;
      if (final && entry.call.name === final.name) {
        const outcome = finalToolResult(turn, final, entry.call.input, envelope);
        if (outcome?.reason === 'answer') context.recordReply({ step, text: outcome.answer, roundEnd: 'answer' });
        if (outcome) return outcome;
      }
      if (verdicts[index] === 'run') turn.repeats.noteResult(envelope.text);
      if (verdicts[index] === 'stop') return turn.repeats.stop(entry.call.name);
    }
  }
  if (services.toolContext.signal.aborted) return { reason: 'interrupted', answer: 'Interrupted by user.' };
  if (known === 0) return turn.countInvalid(`unknown tool "${reply.calls[0]?.name ?? ''}"`);
  turn.resetInvalid();
  return undefined;
}
