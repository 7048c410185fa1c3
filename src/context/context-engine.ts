/**
 * The context engine (DESIGN.md "Token budget", "Compaction"): the one place that decides what the model sees.
 * It owns the history, the builder, the trigger (spec A6/C7), compaction through the summarizer, the in-turn
 * ladder, the window check (every request is measured before it is sent) and the per-turn context state (the
 * question, the scratchpad of full observations, the ladder rung, the one emergency compaction per turn).
 *
 * A turn drives it as: `beginTurn` → (`prepareStep` → model call → `recordReply` [→ tool → `recordObservation`])*
 * → `closeTurn`; `recoverFromOverflow` when the API still says the request was too long. The agent loop
 * (src/loop/code-agent.ts) and the bench (bench/replay/mca/engine-adapter.ts) drive this same class.
 */
import { carriedUsageField } from '../tools/registry/carried-usage.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import type { ImagePart, ToolSpec } from '../providers/types.js';
import { imageReference, MAX_IMAGES_PER_MESSAGE } from '../text/image-part.js';
import type { BuildInput, BuiltContext, ContextBuilder, ScratchpadStep } from './context-builder.js';
import { LiveRounds } from './live-rounds.js';
import type { CompactionReason, ContextEvent, TurnOpenedEvent } from './context-events.js';
import type { HistoryManager } from './history-manager.js';
import { nowIso, type Message, type RoundEnd } from './message.js';
import { observationText } from './observation.js';
import { runCompaction } from './run-compaction.js';
import type { Summarizer, SummaryPrefix } from './summary-compressor.js';
import { summaryPrefixOf } from './summary-request.js';
import { MIN_MESSAGES_FOR_COMPACTION, TURN_CEILING } from './token-budget.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import { compressToolResult } from './tool-result-compressor.js';
import { buildAtState, buildWithinBudget, FULL_TURN, shrinkBatch, type InTurnState } from './turn-budget.js';

/** The least room for a reply a request must leave in the window; a prompt that leaves less is not sent. */
export const MIN_OUTPUT_TOKENS = 1_024;

export interface ContextEngineOptions {
  /** The session's history; its append/snapshot listeners (the session store) stay the caller's. */
  history: HistoryManager;
  builder: ContextBuilder;
  summarizer: Summarizer;
  contextWindow: number;
  /** Compaction starts at `compressionThreshold × contextWindow` (spec A6). */
  compressionThreshold: number;
  /** The reply limit a request asks for, lowered when the prompt leaves less room in the window. */
  maxOutputTokens: number;
  /** The todo recap the prompt carries at each step, if any. */
  todoRecap?: () => string | undefined;
  /** Time stamps of appended messages (default: the current time). */
  now?: () => string;
  /** Where full tool results are kept by reference (Recall); without it history entries carry no reference. */
  toolMemory?: ToolMemory;
  /**
   * Native tool use: the `tools` every model request carries. The summary request carries them too, so it starts
   * with the exact prefix the provider's cache holds. A function when the tool list can change while the session
   * runs (each step reads the current list).
   */
  requestTools?: readonly ToolSpec[] | (() => readonly ToolSpec[]);
  /** The bound of the in-process copy of full results (full-result-cache.ts); tests set a small one. */
  fullResultCacheChars?: number;
}

import type { PreparedStep, StepObservation, StepReply } from './engine-steps.js';
export type { PreparedStep, StepObservation, StepReply } from './engine-steps.js';

/** Read access to the history; every write goes through the engine. */
export type HistoryView = Pick<HistoryManager, 'messages' | 'lastUsage' | 'rounds' | 'closedHistory' | 'openRound'>;

interface TurnView {
  question: string;
  questionImages?: readonly ImagePart[];
  scratchpad: readonly ScratchpadStep[];
  focus?: string | undefined;
}

/** A turn's part of a build: its question, attached images and scratchpad. */
function turnInput(turn: TurnView): Pick<BuildInput, 'question' | 'questionImages' | 'scratchpad'> {
  const images = turn.questionImages ? { questionImages: turn.questionImages } : {};
  return { question: turn.question, scratchpad: turn.scratchpad, ...images };
}

export class ContextEngine {
  private question = '';
  /** This turn's attached images: sent in full this turn; history keeps one reference line per image. */
  private questionImages: readonly ImagePart[] = [];
  private scratchpad: ScratchpadStep[] = [];
  private currentRound = 0;
  private lastStep = 0;
  /** Where this turn stands on the in-turn ladder (turn-budget.ts); it only tightens within a turn. */
  private inTurn: InTurnState = FULL_TURN;
  /** The one emergency compaction a turn gets after the API refused a request as too long. */
  private emergencyUsed = false;
  /** A threshold compaction this turn could change nothing (the turn alone is over it): later ones could not either. */
  private compactionFutile = false;
  private readonly now: () => string;
  /**
   * The system and L3 blocks of the last request sent, exactly as sent: a summary asks on this prefix, which the
   * provider's cache holds. Cleared when a compaction rewrites history (the prefix no longer matches it).
   */
  private lastPrefix: SummaryPrefix | undefined;
  /** Full results by reference and the live rounds (live-rounds.ts): no forgetting without pressure. */
  private readonly live: LiveRounds;

  constructor(private readonly options: ContextEngineOptions) {
    this.now = options.now ?? nowIso;
    this.live = new LiveRounds(options.toolMemory, options.fullResultCacheChars);
    // A round left open by a crash is closed before anything else happens, so it renders as history.
    if (options.history.openRound()) options.history.closeOpenRound('interrupted');
  }

  /** The session's tool memory, for the tools' context (Recall). */
  get toolMemory(): ToolMemory | undefined {
    return this.options.toolMemory;
  }

  get history(): HistoryView {
    return this.options.history;
  }

  /**
   * Opens a turn: closes a round left open, appends the user message and yields `turn_opened` (persist it there:
   * the input is then safe before anything slow starts), then compacts first if the input would pass the threshold.
   */
  async *beginTurn(
    input: string,
    signal: AbortSignal,
    images: readonly ImagePart[] = [],
  ): AsyncGenerator<TurnOpenedEvent | ContextEvent> {
    const { history } = this.options;
    // A round a broken consumer or an earlier failure left open would refuse the new user message.
    if (history.openRound()) history.closeOpenRound('interrupted');
    this.settleTurn();
    this.question = input;
    this.questionImages = images.slice(0, MAX_IMAGES_PER_MESSAGE);
    // A native request's later user messages carry no images: a request with images starts the live rounds anew.
    if (this.questionImages.length > 0 && this.options.builder.historyForm === 'native') this.live.clear();
    this.scratchpad = [];
    this.lastStep = 0;
    this.inTurn = FULL_TURN;
    this.emergencyUsed = false;
    this.compactionFutile = false;
    this.currentRound = history.nextRoundNumber();
    // History (and so the session file) keeps a one-line reference per image, never its data.
    const references = this.questionImages.map(imageReference);
    const content = references.length > 0 ? `${input}\n${references.join('\n')}` : input;
    const user: Message = { role: 'user', content, metadata: { round: this.currentRound, ts: this.now() } };
    history.append(user);
    this.live.opened(user);
    yield { type: 'turn_opened', round: this.currentRound };
    if (this.overBudget(input)) yield* this.compactNow('threshold', signal, this.turnView());
  }

  /**
   * The request of the next step. Before a later step the trigger runs with the newest observation; the build
   * climbs the in-turn ladder while it passes the threshold; a prompt that would not leave MIN_OUTPUT_TOKENS of the
   * window gets one emergency compaction and, if it still does not fit, is refused (`too_large`), never sent.
   */
  async *prepareStep(signal: AbortSignal): AsyncGenerator<ContextEvent, PreparedStep> {
    const { contextWindow, maxOutputTokens } = this.options;
    // The last usage already covers everything before the newest observation; only that one is new.
    const newest = this.scratchpad.at(-1);
    if (
      newest !== undefined &&
      !this.compactionFutile &&
      this.overBudget(newest.observation ?? '', this.turnLimitTokens)
    ) {
      yield* this.compactNow('threshold', signal, this.turnView());
    }
    const first = this.buildStep();
    for (const message of first.degraded) yield { type: 'degrade', level: 1, message };
    let context = first.context;
    const sendable = contextWindow - MIN_OUTPUT_TOKENS;
    if (context.totalTokens > sendable) {
      yield* this.compactNow('emergency', signal, this.turnView());
      context = this.buildStep().context;
      if (context.totalTokens > sendable) {
        const message =
          `This request would need about ${context.totalTokens} tokens, more than the context window ` +
          `(${contextWindow}), even after compaction; nothing was sent. Start a new session (/clear) ` +
          'or ask for smaller steps.';
        return { kind: 'too_large', context, code: 'CONTEXT_TOO_LARGE', message };
      }
    }
    this.lastPrefix = summaryPrefixOf(context, this.requestTools(), this.options.builder.historyForm);
    // Prompt + max_tokens must fit the window (the API refuses the request otherwise).
    return { kind: 'ready', context, maxTokens: Math.min(maxOutputTokens, contextWindow - context.totalTokens) };
  }

  /**
   * The API refused the last request as too long (`context_too_long`): the first time in a turn, the older
   * steps degrade and an emergency compaction runs, and the caller retries the step (true); afterwards false.
   */
  async *recoverFromOverflow(signal: AbortSignal): AsyncGenerator<ContextEvent, boolean> {
    if (this.emergencyUsed) return false;
    this.emergencyUsed = true;
    this.inTurn = shrinkBatch(this.inTurn, Math.max(this.inTurn.level, 1), this.scratchpad.length);
    yield* this.compactNow('emergency', signal, this.turnView());
    return true;
  }

  /** Appends the model's reply of a step to history, as it happens. */
  recordReply(reply: StepReply): void {
    this.lastStep = reply.step;
    this.options.history.append({
      role: 'assistant',
      content: reply.text,
      metadata: {
        round: this.currentRound,
        step: reply.step,
        ts: this.now(),
        ...(reply.usage ? { usage: reply.usage } : {}),
        ...(reply.action ? { action: reply.action } : {}),
        ...(reply.roundEnd ? { roundEnd: reply.roundEnd } : {}),
        ...(reply.callId ? { callId: reply.callId } : {}),
      },
    });
  }

  /** Appends the compressed result to history and the full one to the scratchpad; returns the compressed JSON. */
  recordObservation(observation: StepObservation): string {
    const { action, step } = observation;
    const full = observationText(observation.envelope);
    // A tool may say its full result is not stored again (Recall: its output already is a stored result).
    const stored = toolNamed(action.tool)?.storeResult !== false;
    const ref = stored ? this.options.toolMemory?.store(full) : undefined;
    if (ref !== undefined) this.live.remember(ref, full);
    const compressed = compressToolResult(action.tool, observation.envelope, ref);
    this.options.history.append({
      role: 'tool',
      content: compressed,
      metadata: {
        round: this.currentRound,
        step,
        ts: this.now(),
        toolName: action.tool,
        action,
        ...(ref !== undefined ? { ref } : {}),
        ...callIdOf(observation),
        ...carriedUsageField(observation.envelope),
      },
    });
    this.scratchpad.push({
      assistant: observation.assistantText,
      observation: full,
      compressed,
      tool: action.tool,
      ...(observation.native ? { native: observation.native } : {}),
      ...(ref !== undefined ? { ref } : {}),
      ...(observation.envelope.images?.length
        ? { images: observation.envelope.images.slice(0, MAX_IMAGES_PER_MESSAGE) }
        : {}),
    });
    return compressed;
  }

  /**
   * Closes the turn's round if it is still open (a Finish or an answer already closed it): with `note`, as
   * `[reason] note`; without, with the standard closing line.
   */
  closeTurn(reason: RoundEnd, note?: string): void {
    const { history } = this.options;
    const open = history.openRound();
    if (open === undefined) return;
    if (note === undefined) {
      history.closeOpenRound(reason);
      return;
    }
    history.append({
      role: 'assistant',
      content: `[${reason}] ${note}`,
      metadata: { round: open.round, step: this.lastStep + 1, ts: this.now(), roundEnd: reason },
    });
  }

  /** `/compact [focus]`, between turns. */
  async *compact(options: { focus?: string | undefined; signal: AbortSignal }): AsyncGenerator<ContextEvent> {
    yield* this.compactNow('manual', options.signal, { question: '', scratchpad: [], focus: options.focus });
  }

  /** The prompt as the closed history alone would build it (for `/context`). */
  closedContext(): BuiltContext {
    this.settleTurn();
    return this.options.builder.build({ ...this.historyInput(), scratchpad: [], question: '' });
  }

  /** The closed history as a build takes it: whole results in full, live rounds as they were sent. */
  private historyInput(): Pick<BuildInput, 'history' | 'fullResults' | 'liveRounds'> {
    return {
      history: this.options.history.closedHistory(),
      fullResults: this.live.fullResults,
      ...(this.live.shown ? { liveRounds: this.live.shown } : {}),
    };
  }

  /** Settles this turn's round into the live rounds once it has closed (live-rounds.ts). */
  private settleTurn(): void {
    const { builder, history } = this.options;
    this.live.settle(history, builder.historyForm, () =>
      buildAtState(builder, { history: [], ...turnInput(this.turnView()) }, this.inTurn),
    );
  }

  private requestTools(): readonly ToolSpec[] | undefined {
    const tools = this.options.requestTools;
    return typeof tools === 'function' ? tools() : tools;
  }

  private turnView(): TurnView {
    return { question: this.question, questionImages: this.questionImages, scratchpad: this.scratchpad };
  }

  private get thresholdTokens(): number {
    return this.options.contextWindow * this.options.compressionThreshold;
  }

  /** How far the prompt may grow within a turn (TURN_CEILING), never below the threshold. */
  private get turnLimitTokens(): number {
    return this.options.contextWindow * Math.max(this.options.compressionThreshold, TURN_CEILING);
  }

  private measure(turn: TurnView): number {
    return this.options.builder.build({ ...this.historyInput(), ...turnInput(turn) }).totalTokens;
  }

  /**
   * The trigger of spec A6/C7: last real usage plus the new text's estimate against threshold × window, never
   * under three messages. With no usage to go on (a new or just-compacted session) the estimate of the prompt as
   * it would be built stands in.
   */
  private overBudget(pendingText: string, limitTokens = this.thresholdTokens): boolean {
    const { history, contextWindow } = this.options;
    if (history.messages.length < MIN_MESSAGES_FOR_COMPACTION) return false;
    if (history.lastUsage() > 0)
      return history.shouldCompress(pendingText, { contextWindow, threshold: limitTokens / contextWindow });
    return this.measure(this.turnView()) >= limitTokens;
  }

  private buildStep(): { context: BuiltContext; degraded: string[] } {
    const { builder, todoRecap } = this.options;
    const result = buildWithinBudget(
      builder,
      {
        ...this.historyInput(),
        scratchpad: this.scratchpad,
        question: this.question,
        questionImages: this.questionImages,
        todoRecap: todoRecap?.(),
      },
      this.turnLimitTokens,
      this.inTurn,
    );
    this.inTurn = result.state;
    this.live.releaseShrunk(this.scratchpad, this.inTurn.shrunkSteps);
    return result;
  }

  private async *compactNow(
    reason: CompactionReason,
    signal: AbortSignal,
    turn: TurnView,
  ): AsyncGenerator<ContextEvent> {
    const { history, builder, summarizer } = this.options;
    this.settleTurn();
    const listBefore = history.messages;
    // The last real usage is the truest size of the prompt that triggered this; estimates stand in without one.
    const before = Math.max(history.lastUsage(), this.measure(turn));
    // What this turn takes as the ladder shows it now (its older steps may already be shrunk).
    const fixed = buildAtState(
      builder,
      { history: [], ...turnInput(turn) },
      turn.scratchpad === this.scratchpad ? this.inTurn : FULL_TURN,
    ).totalTokens;
    const prefix = this.lastPrefix;
    this.lastPrefix = undefined;
    // An emergency whose turn alone passes the threshold could never reach it: it aims at what may be sent at all.
    const budget =
      reason === 'emergency' && fixed >= this.thresholdTokens
        ? this.options.contextWindow - MIN_OUTPUT_TOKENS
        : this.thresholdTokens;
    yield* runCompaction(history, summarizer, {
      ...(prefix ? { prefix } : {}),
      ...(this.options.toolMemory ? { toolMemory: this.options.toolMemory } : {}),
      reason,
      ...(turn.focus ? { focus: turn.focus } : {}),
      signal,
      budgetTokens: Math.floor(budget),
      fixedTokens: fixed,
      tokensBefore: before,
      fullResults: this.live.fullResults,
      // A compaction that rewrote history shows its rounds as transcript from now on (one rewrite of the prefix).
      measure: () => {
        if (history.messages !== listBefore) this.live.clear();
        return this.measure(turn);
      },
    });
    if (history.messages !== listBefore) this.live.clear();
    else if (reason === 'threshold' && fixed >= budget) this.compactionFutile = true;
  }
}

/** The id a stored result carries: its call's, given or native. */
function callIdOf(observation: StepObservation): { callId?: string } {
  const callId = observation.callId ?? observation.native?.call?.id;
  return callId === undefined ? {} : { callId };
}
