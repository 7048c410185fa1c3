/**
 * A COPY of how src/agent/code-agent.ts drives the context engine, kept only until src/context/context-engine.ts
 * exists (replay-engine.ts says how it is replaced). It uses the product's parts and copies only their wiring:
 * - HistoryManager: every message appended as it happens; tool messages = compressToolResult of the envelope;
 *   each assistant message carries the call's usage, so `lastUsage()` works as in the loop.
 * - The trigger, as `CodeAgent.overBudget`: fewer than 3 messages never compact; otherwise the last usage plus the
 *   new text (the turn's input before a turn, the newest observation before a later step), or the built prompt
 *   when no usage is known, against threshold × window.
 * - Compaction via HistoryManager.compact (10 retained rounds, degradation levels 2–3 with budget =
 *   threshold × window); the in-turn ladder `buildWithinBudget` when a build passes threshold × window; one
 *   emergency compaction per turn when a request still exceeds the window (the loop does that on
 *   `context_too_long`).
 */
import { observationText } from '../../../src/agent/observation.js';
import {
  ContextBuilder,
  PART_SEPARATOR,
  type BuiltContext,
  type ScratchpadStep,
} from '../../../src/context/context-builder.js';
import { HistoryManager } from '../../../src/context/history-manager.js';
import type { RoundEnd } from '../../../src/context/message.js';
import { estimateTokens } from '../../../src/context/token-budget.js';
import { compressToolResult } from '../../../src/context/tool-result-compressor.js';
import { buildWithinBudget } from '../../../src/context/turn-budget.js';
import { ZERO_USAGE } from '../../../src/providers/types.js';
import type { Segment } from '../prefix-cache.js';
import type { StrategyEvent } from '../strategy.js';
import type { PreparedRequest, RecordedStep, ReplayContextEngine, ReplayEngineOptions } from './replay-engine.js';

/** mca's defaults (DESIGN.md "Token budget"): threshold 0.8, 10 retained rounds. */
export const MCA_THRESHOLD = 0.8;
export const MCA_MIN_RETAIN_ROUNDS = 10;

const TS = new Date(0).toISOString();

/** Request segments in order; every segment after the first starts with the separator the provider joins with. */
export function segmentsOf(built: BuiltContext): Segment[] {
  const { system, user } = built.toRequestSegments();
  return [...system, ...user].map((segment, index) => ({
    text: index === 0 ? segment.text : PART_SEPARATOR + segment.text,
    ...(segment.cacheBreakpoint ? { cacheBreakpoint: true } : {}),
  }));
}

export class LoopCopyEngine implements ReplayContextEngine {
  private readonly history = new HistoryManager({ minRetainRounds: MCA_MIN_RETAIN_ROUNDS });
  private readonly builder: ContextBuilder;
  private round = 0;
  private step = 0;
  private question = '';
  private scratchpad: ScratchpadStep[] = [];
  /** The in-turn ladder rung (src/context/turn-budget.ts), as the loop keeps it per turn. */
  private tightLevel = 0;
  private emergencyUsed = false;

  constructor(private readonly options: ReplayEngineOptions) {
    this.builder = new ContextBuilder({ systemPrompt: options.systemText });
  }

  async beginTurn(input: string): Promise<StrategyEvent[]> {
    this.question = input;
    this.scratchpad = [];
    this.step = 0;
    this.tightLevel = 0;
    this.emergencyUsed = false;
    const events = this.overBudget(input) ? await this.compact() : [];
    this.round = this.history.nextRoundNumber();
    this.history.append({ role: 'user', content: input, metadata: { round: this.round, ts: TS } });
    return events;
  }

  async prepareStep(): Promise<PreparedRequest> {
    const newest = this.scratchpad.at(-1)?.observation ?? '';
    const events = this.step > 0 && this.overBudget(newest) ? await this.compact() : [];
    let built = this.build(events);
    if (built.tokens > this.options.contextWindow && !this.emergencyUsed) {
      this.emergencyUsed = true;
      this.tightLevel = Math.max(this.tightLevel, 1);
      events.push(...(await this.compact()));
      built = this.build(events);
    }
    return { ...built, events };
  }

  recordStep(step: RecordedStep): void {
    this.step += 1;
    const usage = { ...ZERO_USAGE, inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens };
    const metadata = { round: this.round, step: this.step, ts: TS, usage };
    if (step.action === undefined) {
      this.history.append({ role: 'assistant', content: step.reply, metadata: { ...metadata, roundEnd: 'finish' } });
      return;
    }
    const action = { tool: step.action.tool, input: step.action.input };
    this.history.append({ role: 'assistant', content: step.reply, metadata: { ...metadata, action } });
    const compressed = compressToolResult(action.tool, step.action.envelope);
    this.history.append({
      role: 'tool',
      content: compressed,
      metadata: { round: this.round, step: this.step, ts: TS, toolName: action.tool, action },
    });
    const observation = observationText(step.action.envelope);
    this.scratchpad.push({ assistant: step.reply, observation, compressed, tool: action.tool });
  }

  closeTurn(reason: RoundEnd): void {
    if (this.history.openRound() !== undefined) this.history.closeOpenRound(reason);
  }

  /** `CodeAgent.overBudget`: the last usage plus the new text, or the built prompt when no usage is known. */
  private overBudget(pendingText: string): boolean {
    if (this.history.messages.length < 3) return false;
    const last = this.history.lastUsage();
    const estimate =
      last > 0
        ? last + estimateTokens(pendingText)
        : this.builder.build({
            history: this.history.closedHistory(),
            scratchpad: this.scratchpad,
            question: this.question,
          }).totalTokens;
    return estimate >= this.options.contextWindow * MCA_THRESHOLD;
  }

  private async compact(): Promise<StrategyEvent[]> {
    const fixedTokens = this.builder.build({
      history: [],
      scratchpad: this.scratchpad,
      question: this.question,
    }).totalTokens;
    const result = await this.history.compact(this.options.summarizer, {
      budgetTokens: Math.floor(this.options.contextWindow * MCA_THRESHOLD),
      fixedTokens,
    });
    const events: StrategyEvent[] = result.degradations.map((degradation) => ({
      kind: 'degradation',
      detail: `level ${degradation.level}`,
    }));
    // Content left the prompt: rounds archived (summary or not), or level 3 dropped the oldest rounds.
    const dropped = result.degradations.some((degradation) => degradation.level === 3);
    if (result.outcome !== 'nothing_to_compact' || dropped) events.unshift({ kind: 'compaction' });
    return events;
  }

  /** One budgeted build, as the loop does it: the in-turn ladder when tight. */
  private build(events: StrategyEvent[]): { segments: Segment[]; tokens: number } {
    const result = buildWithinBudget(
      this.builder,
      { history: this.history.closedHistory(), scratchpad: this.scratchpad, question: this.question },
      this.options.contextWindow * MCA_THRESHOLD,
      this.tightLevel,
    );
    for (let index = 0; index < result.degraded.length; index += 1) {
      events.push({ kind: 'degradation', detail: 'level 1' });
    }
    this.tightLevel = result.level;
    return { segments: segmentsOf(result.context), tokens: result.context.totalTokens };
  }
}
