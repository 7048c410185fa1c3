/**
 * The protocol state of one round in progress and what one model reply does to it: the bad-action and
 * repeated-action counters, and which reply and observation the context engine records as each step happens.
 */
import type { ContextEngine } from '../context/context-engine.js';
import type { RoundEnd, ToolAction } from '../context/message.js';
import { shortenString, storedAction } from '../context/stored-action.js';
import type { StopReason, Usage } from '../providers/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';
import { errorEnvelope } from '../tools/registry/envelope.js';
import type { RunContext, ToolRegistry } from '../tools/registry/registry.js';
import type { AgentEvent } from './events.js';
import { newCallId } from './call-id.js';
import { EXPECTED_FORM, formatAction, parseReplyRepairing } from './react-protocol.js';
import { RepeatBreaker } from './repeat-breaker.js';
import { keepAnswerOnFailure } from './unsaved-answer.js';

/** Consecutive unusable actions (unparseable, bad JSON, unknown tool) that end the turn. */
export const MAX_INVALID_ACTIONS = 3;

export const NARRATION_NUDGE =
  'Your reply had a Thought but no Action, so nothing ran. If you are done, reply with ' +
  '"Action: Finish[<final answer>]"; otherwise write the Action for your next step, e.g. ' +
  '"Action: Read[{"path": "src/a.ts"}]".';

/** What the model is told when its reply was cut at max_tokens. */
export function outputLimitMessage(limitTokens: number): string {
  return (
    `Your reply was cut off at the output limit (${limitTokens} tokens) before it was complete, so nothing in it ` +
    'was run. Keep each reply shorter: write a large file in parts (Write the first part, then add the rest ' +
    'with Edit, or split it into several files), change existing files with Edit instead of rewriting them, ' +
    'and keep a final answer brief.'
  );
}

/** The assistant text history stores for an action whose input was shortened. */
function storedActionText(thought: string, action: ToolAction): string {
  return `${thought === '' ? '' : `Thought: ${thought}\n`}${formatAction(action)}`;
}

export interface StepServices {
  /** Where each reply and observation is recorded (history and the scratchpad). */
  context: Pick<ContextEngine, 'recordReply' | 'recordObservation'>;
  /** The request's max_tokens, named in the output-limit observation. */
  outputLimitTokens: number;
  registry: ToolRegistry;
  /** The session's tool environment and decision point, the same for every call of the step. */
  toolContext: RunContext;
}

export interface RoundOutcome {
  reason: RoundEnd;
  answer: string;
  error?: { code: string; message: string };
  /** A final tool's input that ended the turn (`--json-schema`). */
  structuredOutput?: unknown;
}

export class TurnState {
  steps = 0;
  usage: Usage = { ...ZERO_USAGE };
  private invalidInARow = 0;
  /** A reply that only narrated (a Thought and no Action) was already answered with a nudge this turn. */
  private nudged = false;
  /** The repeated-call breaker of this turn (repeat-breaker.ts). */
  readonly repeats: RepeatBreaker;

  constructor(readonly maxRepeatedActions: number) {
    this.repeats = new RepeatBreaker(maxRepeatedActions);
  }

  /** Applies one model reply. Returns how the round ends, or undefined to take another step. */
  async *applyReply(
    raw: string,
    reply: { usage: Usage; stopReason: StopReason },
    step: number,
    services: StepServices,
  ): AsyncGenerator<AgentEvent, RoundOutcome | undefined> {
    this.steps = step;
    const parsed = await parseReplyRepairing(raw);
    const { context } = services;
    const base = { step, usage: reply.usage };

    // A reply cut at the output limit is incomplete: only an action written out in full may run.
    if (reply.stopReason === 'max_tokens' && !(parsed.kind === 'action' && parsed.exact)) {
      const message = outputLimitMessage(services.outputLimitTokens);
      const why = { reason: 'the reply was cut at the output limit', code: 'OUTPUT_LIMIT' };
      return yield* this.refuseReply(parsed.text, '', message, step, services, why);
    }
    if (parsed.kind === 'answer' && parsed.narration && !this.nudged && parsed.answer !== '') {
      this.nudged = true;
      const why = { reason: 'a Thought without an Action', code: 'INVALID_ACTIONS' };
      return yield* this.refuseReply(parsed.text, parsed.answer, NARRATION_NUDGE, step, services, why);
    }
    if (parsed.kind === 'answer' && parsed.answer !== '') {
      keepAnswerOnFailure(parsed.answer, () => context.recordReply({ ...base, text: parsed.text, roundEnd: 'answer' }));
      yield { type: 'assistant_step', step, thought: '', action: null, raw: parsed.text };
      return { reason: 'answer', answer: parsed.answer };
    }
    if (parsed.kind === 'finish') {
      keepAnswerOnFailure(parsed.answer, () => context.recordReply({ ...base, text: parsed.text, roundEnd: 'finish' }));
      yield { type: 'assistant_step', step, thought: parsed.thought, action: null, raw: parsed.text };
      return { reason: 'finish', answer: parsed.answer };
    }
    if (parsed.kind === 'answer' || parsed.kind === 'invalid') {
      const reason = parsed.kind === 'invalid' ? parsed.reason : 'the reply was empty';
      const thought = parsed.kind === 'invalid' ? parsed.thought : '';
      const text = parsed.text === '' ? '(empty reply)' : parsed.text;
      const observation = `Invalid action: ${reason}. ${EXPECTED_FORM}`;
      return yield* this.refuseReply(text, thought, observation, step, services, { reason, code: 'INVALID_ACTIONS' });
    }

    // The call's id exists from here on: events, history and the session file all carry it.
    const callId = newCallId();
    const { action, shortened } = storedAction(parsed.action);
    const text = shortened ? storedActionText(parsed.thought, action) : parsed.text;
    const verdict = this.repeats.verdict(parsed.action);
    context.recordReply({ ...base, text, action, callId });
    yield { type: 'assistant_step', step, thought: parsed.thought, action, raw: text };
    if (verdict === 'stop') {
      yield* this.recordObservation(text, action, this.repeats.stopEnvelope(action.tool), step, services, callId);
      return this.repeats.stop(action.tool);
    }

    yield { type: 'tool_start', step, id: callId, tool: action.tool, input: action.input };
    const call = { id: callId, name: parsed.action.tool, input: parsed.action.input, source: 'model' as const };
    const envelope =
      verdict === 'repeat'
        ? this.repeats.repeatedEnvelope(action.tool)
        : await services.registry.run(call, services.toolContext);
    if (verdict === 'run') this.repeats.noteResult(envelope.text);
    yield* this.recordObservation(text, action, envelope, step, services, callId);
    if (verdict === 'repeat') return undefined;
    if (services.toolContext.signal.aborted) return { reason: 'interrupted', answer: 'Interrupted by user.' };
    if (services.registry.get(action.tool) === undefined) return this.countInvalid(`unknown tool "${action.tool}"`);
    this.resetInvalid();
    return undefined;
  }

  /** A usable action ran: the invalid-action count starts again. */
  resetInvalid(): void {
    this.invalidInARow = 0;
  }

  /**
   * A reply that runs nothing: stored (shortened if huge), answered with an INVALID_PARAM observation that says
   * what to do, and counted towards the invalid-action limit.
   */
  private async *refuseReply(
    replyText: string,
    thought: string,
    observation: string,
    step: number,
    services: StepServices,
    why: { reason: string; code: string },
  ): AsyncGenerator<AgentEvent, RoundOutcome | undefined> {
    const text = shortenString(replyText === '' ? '(empty reply)' : replyText);
    services.context.recordReply({ step, text });
    yield { type: 'assistant_step', step, thought, action: null, raw: text };
    const envelope = errorEnvelope('INVALID_PARAM', observation);
    yield* this.recordObservation(text, { tool: 'ReAct', input: {} }, envelope, step, services);
    return this.countInvalid(why.reason, why.code);
  }

  /** Counts an unusable reply; returns the round's end once MAX_INVALID_ACTIONS came in a row. */
  countInvalid(reason: string, code = 'INVALID_ACTIONS'): RoundOutcome | undefined {
    this.invalidInARow += 1;
    if (this.invalidInARow < MAX_INVALID_ACTIONS) return undefined;
    const message =
      code === 'OUTPUT_LIMIT'
        ? `The model's reply was cut at the output limit ${MAX_INVALID_ACTIONS} times in a row; stopping ` +
          '(raise maxOutputTokens, or ask for smaller steps).'
        : `The model produced ${MAX_INVALID_ACTIONS} invalid actions in a row (last: ${reason}); stopping.`;
    return { reason: 'error', answer: message, error: { code, message } };
  }

  private *recordObservation(
    assistantText: string,
    action: ToolAction,
    envelope: ToolEnvelope,
    step: number,
    { context }: StepServices,
    callId?: string,
  ): Generator<AgentEvent> {
    const compressed = context.recordObservation({
      step,
      assistantText,
      action,
      envelope,
      ...(callId ? { callId } : {}),
    });
    const id = callId ?? newCallId();
    yield { type: 'tool_end', step, id, tool: action.tool, input: action.input, result: envelope, compressed };
  }
}
