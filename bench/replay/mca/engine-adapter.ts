/**
 * The bench's seam (replay-engine.ts) over mca's real context engine (src/context/context-engine.ts): the same
 * class the agent loop drives, with the settings of the priced model's profile, so the bench measures the
 * product and never a copy of its orchestration. This file only translates: the recorded step becomes the
 * reply and observation the loop records, the engine's request becomes segments, its events the driver's.
 */
import { profileFor } from '../../../src/config/model-profiles.js';
import { PART_SEPARATOR, ContextBuilder, type BuiltContext } from '../../../src/context/context-builder.js';
import { ContextEngine } from '../../../src/context/context-engine.js';
import type { ContextEvent, TurnOpenedEvent } from '../../../src/context/context-events.js';
import { HistoryManager } from '../../../src/context/history-manager.js';
import type { RoundEnd } from '../../../src/context/message.js';
import { turnMessageText } from '../../../src/context/native-turn.js';
import { ZERO_USAGE, type PromptSegment, type TurnMessage } from '../../../src/providers/types.js';
import { InMemoryToolMemory } from '../../../src/tools/memory/tool-memory.js';
import type { Segment } from '../prefix-cache.js';
import { PRICED_MODEL } from '../pricing.js';
import type { StrategyEvent } from '../strategy.js';
import type { PreparedRequest, RecordedStep, ReplayContextEngine, ReplayEngineOptions } from './replay-engine.js';

/**
 * mca's settings as the product picks them for the priced model (src/config/model-profiles.ts): the profile's
 * threshold and retained rounds; the window is the workload's.
 */
const PROFILE = profileFor(PRICED_MODEL);
export const MCA_THRESHOLD = PROFILE.compressionThreshold;
export const MCA_MIN_RETAIN_ROUNDS = PROFILE.minRetainRounds;

/** A fixed time stamp: time stamps never reach a model request, and the replay stays deterministic. */
const TS = new Date(0).toISOString();

/** Request segments in order; every segment after the first starts with the separator the provider joins with. */
export function segmentsOf(built: BuiltContext): Segment[] {
  return requestSegments(built.toRequestSegments());
}

/** The same for any request's system and user blocks and messages (the summary request too). */
export function requestSegments(request: {
  system: readonly PromptSegment[];
  user: readonly PromptSegment[];
  turn?: readonly TurnMessage[] | undefined;
}): Segment[] {
  const { system, user } = request;
  return joined([...system, ...user, ...turnBlocks(request.turn ?? [])]);
}

/** Each message as one block: a reply's text and calls as JSON, a user message's results and text. */
function turnBlocks(turn: readonly TurnMessage[]): Array<{ text: string; cacheBreakpoint?: boolean }> {
  return turn.map((message) => ({
    text: turnMessageText(message),
    ...(message.role === 'user' && message.cacheBreakpoint ? { cacheBreakpoint: true } : {}),
  }));
}

function joined(texts: ReadonlyArray<{ text: string; cacheBreakpoint?: boolean }>): Segment[] {
  return texts.map((segment, index) => ({
    text: index === 0 ? segment.text : PART_SEPARATOR + segment.text,
    ...(segment.cacheBreakpoint ? { cacheBreakpoint: true } : {}),
  }));
}

/**
 * Native tool use: the layers as above, then each message of the current turn as one segment (the reply's text and
 * its calls as JSON; the results' content), the newest result ending the cached prefix as the request marks it.
 */
export function nativeSegmentsOf(built: BuiltContext): Segment[] {
  const { system, user, turn, tail } = built.toNativeRequest();
  return joined([...system, ...user, ...turnBlocks(turn), ...tail]);
}

/**
 * The driver's view of the engine's events: archiving rounds (a summary, or its fallback note) or dropping rounds
 * (level 3) is a `compaction`; the in-turn ladder (level 1) and shrinking older results (level 2) are degradations.
 * A level-3 warning that kept every round changed nothing and counts as neither.
 */
export class EventTranslator {
  readonly events: StrategyEvent[] = [];
  private closedBefore = 0;

  constructor(private readonly closedRounds: () => number) {}

  add(event: ContextEvent | TurnOpenedEvent): void {
    if (event.type === 'compaction_start') this.closedBefore = this.closedRounds();
    else if (event.type === 'degrade') {
      if (event.level !== 3) this.events.push({ kind: 'degradation', detail: `level ${event.level}` });
    } else if (event.type === 'compaction_end') {
      const dropped = this.closedBefore - event.roundsArchived - event.roundsKept;
      if (event.outcome !== 'nothing_to_compact' || dropped > 0) this.events.push({ kind: 'compaction' });
    }
  }

  /** Runs an engine generator to its end, translating every event; returns its result. */
  async drive<R>(run: AsyncGenerator<ContextEvent | TurnOpenedEvent, R>): Promise<R> {
    for (let next = await run.next(); ; next = await run.next()) {
      if (next.done) return next.value;
      this.add(next.value);
    }
  }
}

export class ContextEngineAdapter implements ReplayContextEngine {
  private readonly engine: ContextEngine;
  /** The replay is never interrupted. */
  private readonly signal = new AbortController().signal;
  private step = 0;
  private calls = 0;
  private readonly native: boolean;

  constructor(options: ReplayEngineOptions) {
    this.native = options.protocol === 'native';
    this.engine = new ContextEngine({
      history: new HistoryManager({ minRetainRounds: MCA_MIN_RETAIN_ROUNDS }),
      builder: new ContextBuilder({
        systemPrompt: options.systemText,
        historyForm: this.native ? 'native' : 'text',
      }),
      summarizer: options.summarizer,
      contextWindow: options.contextWindow,
      compressionThreshold: MCA_THRESHOLD,
      maxOutputTokens: options.maxOutputTokens,
      now: () => TS,
      // Full results by reference, as the product keeps them (in memory here: the replay writes no files).
      toolMemory: new InMemoryToolMemory(),
    });
  }

  async beginTurn(input: string): Promise<StrategyEvent[]> {
    this.step = 0;
    const translator = this.translator();
    await translator.drive(this.engine.beginTurn(input, this.signal));
    return translator.events;
  }

  /**
   * A request the loop would refuse (`too_large`: it would not leave room for a reply even after compaction) is
   * still returned, at its size, so the driver counts it as an overflow; the recording goes on where the product
   * would have ended the turn.
   */
  async prepareStep(): Promise<PreparedRequest> {
    const translator = this.translator();
    const prepared = await translator.drive(this.engine.prepareStep(this.signal));
    return {
      segments: this.native ? nativeSegmentsOf(prepared.context) : segmentsOf(prepared.context),
      tokens: prepared.context.totalTokens,
      events: translator.events,
    };
  }

  recordStep(step: RecordedStep): void {
    this.step += 1;
    const usage = { ...ZERO_USAGE, inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens };
    if (step.action === undefined) {
      this.engine.recordReply({ step: this.step, text: step.reply, usage, roundEnd: 'finish' });
      return;
    }
    const action = { tool: step.action.tool, input: step.action.input };
    const call = { id: `call_${++this.calls}`, name: action.tool, input: action.input };
    const native = this.native
      ? {
          native: {
            reply: this.step,
            replyText: step.nativeText ?? '',
            call,
            isError: step.action.envelope.status === 'error',
          },
        }
      : {};
    this.engine.recordReply({
      step: this.step,
      text: step.reply,
      usage,
      action,
      ...(this.native ? { callId: call.id } : {}),
    });
    this.engine.recordObservation({
      step: this.step,
      assistantText: step.reply,
      action,
      envelope: step.action.envelope,
      ...native,
    });
  }

  private translator(): EventTranslator {
    return new EventTranslator(() => this.engine.history.rounds().filter((round) => round.closed).length);
  }

  closeTurn(reason: RoundEnd): void {
    this.engine.closeTurn(reason);
  }
}
