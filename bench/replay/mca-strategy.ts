/**
 * The `mca` strategy: the real context engine driven the way the agent loop drives it (src/agent/code-agent.ts):
 * HistoryManager (every message appended as it happens, compressed tool results via compressToolResult),
 * ContextBuilder (L1, L3 closed rounds + summaries, current input, scratchpad with full observations),
 * the spec trigger (last usage + the new text's estimate ≥ threshold × window, ≥ 3 messages), compaction through
 * HistoryManager.compact with a stand-in summarizer, the in-turn ladder (buildWithinBudget), and one emergency
 * compaction when a request would still exceed the window (what the loop does on `context_too_long`).
 */
import { formatAction } from '../../src/agent/react-protocol.js';
import { observationText } from '../../src/agent/observation.js';
import {
  ContextBuilder,
  PART_SEPARATOR,
  type BuiltContext,
  type ScratchpadStep,
} from '../../src/context/context-builder.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Message } from '../../src/context/message.js';
import type { SummaryOutcome, Summarizer } from '../../src/context/summary-compressor.js';
import { estimateTokens, shouldCompact } from '../../src/context/token-budget.js';
import { compressToolResult } from '../../src/context/tool-result-compressor.js';
import { buildWithinBudget } from '../../src/context/turn-budget.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import type { Segment } from './prefix-cache.js';
import {
  standInSummary,
  type ModelCall,
  type ReplayStep,
  type Strategy,
  type StrategyName,
  type StrategyOptions,
} from './strategy.js';
import type { ToolEnvelope } from '../../src/tools/envelope.js';

/** mca's defaults (DESIGN.md "Token budget"): threshold 0.8, 10 retained rounds; level 1 keeps 3 full steps. */
export const MCA_THRESHOLD = 0.8;
export const MCA_MIN_RETAIN_ROUNDS = 10;

/** Archives into the fixed-size stand-in text; never fails. */
export const standInSummarizer: Summarizer = {
  async summarize(messages: readonly Message[]): Promise<SummaryOutcome> {
    return { ok: true, text: standInSummary(messages.length, 'mca'), usage: { ...ZERO_USAGE } };
  },
};

/** The model's reply in mca's ReAct form. */
export function mcaReply(step: ReplayStep): string {
  const thought = `Thought: ${step.thought.trim() || '(no recorded thought)'}`;
  if (step.action !== undefined)
    return `${thought}\n${formatAction({ tool: step.action.tool, input: step.action.input })}`;
  return `${thought}\nAction: Finish[${step.answer ?? ''}]`;
}

/** Request segments in order; every segment after the first starts with the separator the provider joins with. */
export function segmentsOf(built: BuiltContext): Segment[] {
  const { system, user } = built.toRequestSegments();
  return [...system, ...user].map((segment, index) => ({
    text: index === 0 ? segment.text : PART_SEPARATOR + segment.text,
    ...(segment.cacheBreakpoint ? { cacheBreakpoint: true } : {}),
  }));
}

/**
 * A what-if, not the product: Read results kept in history capped at this many lines (the spec keeps 500). It
 * measures how much of mca's cost is the Read rule; the full observation during the turn is unchanged.
 */
export const WHAT_IF_READ_LINES = 100;

function capRead(envelope: ToolEnvelope, lines: number): ToolEnvelope {
  const data = envelope.data as { content?: unknown };
  if (typeof data.content !== 'string') return envelope;
  const kept = data.content.split('\n');
  if (kept.length <= lines) return envelope;
  return { ...envelope, data: { ...envelope.data, content: kept.slice(0, lines).join('\n'), truncated: true } };
}

export class McaStrategy implements Strategy {
  readonly name: StrategyName;
  compactions = 0;
  readonly degradations = { level1: 0, level2: 0, level3: 0 };
  private readonly history = new HistoryManager({ minRetainRounds: MCA_MIN_RETAIN_ROUNDS });
  private readonly builder: ContextBuilder;
  private round = 0;
  private step = 0;
  private question = '';
  private scratchpad: ScratchpadStep[] = [];
  /** The previous call's tokens + its output; undefined right after a compaction (the loop forgets usage). */
  private lastUsage: number | undefined;
  private pendingText = '';
  /** The in-turn ladder rung (src/context/turn-budget.ts), as the loop keeps it per turn. */
  private tightLevel = 0;
  private emergencyUsed = false;

  constructor(
    private readonly options: StrategyOptions,
    private readonly historyReadLines?: number,
  ) {
    this.name = historyReadLines === undefined ? 'mca' : 'mca-read100';
    this.builder = new ContextBuilder({ systemPrompt: options.systemText });
  }

  async startTask(task: string): Promise<void> {
    this.question = task;
    this.scratchpad = [];
    this.step = 0;
    this.tightLevel = 0;
    this.emergencyUsed = false;
    if (this.overBudget(task)) await this.compact();
    this.round = this.history.nextRoundNumber();
    this.history.append({
      role: 'user',
      content: task,
      metadata: { round: this.round, ts: new Date(0).toISOString() },
    });
  }

  async nextCall(): Promise<ModelCall> {
    if (this.step > 0 && this.overBudget(this.pendingText)) await this.compact();
    let call = this.build();
    if (call.tokens > this.options.contextWindow && !this.emergencyUsed) {
      this.emergencyUsed = true;
      this.tightLevel = Math.max(this.tightLevel, 1);
      await this.compact();
      call = this.build();
    }
    return call;
  }

  record(step: ReplayStep, call: ModelCall): void {
    this.step += 1;
    const reply = mcaReply(step);
    const output = estimateTokens(reply);
    this.lastUsage = call.tokens + output;
    const metadata = {
      round: this.round,
      step: this.step,
      ts: new Date(0).toISOString(),
      usage: { ...ZERO_USAGE, inputTokens: call.tokens, outputTokens: output },
    };
    if (step.action === undefined) {
      this.history.append({ role: 'assistant', content: reply, metadata: { ...metadata, roundEnd: 'finish' } });
      return;
    }
    const action = { tool: step.action.tool, input: step.action.input };
    this.history.append({ role: 'assistant', content: reply, metadata: { ...metadata, action } });
    const stored =
      action.tool === 'Read' && this.historyReadLines !== undefined
        ? capRead(step.action.envelope, this.historyReadLines)
        : step.action.envelope;
    const compressed = compressToolResult(action.tool, stored);
    this.history.append({
      role: 'tool',
      content: compressed,
      metadata: { round: this.round, step: this.step, ts: metadata.ts, toolName: action.tool, action },
    });
    const observation = observationText(step.action.envelope);
    this.scratchpad.push({ assistant: reply, observation, compressed, tool: action.tool });
    this.pendingText = observation;
  }

  endTask(): void {
    if (this.history.openRound() !== undefined) this.history.closeOpenRound('finish');
  }

  /** The spec trigger; with no usage to go on, the estimate of the prompt as it would be built stands in. */
  private overBudget(pendingText: string): boolean {
    const lastUsage =
      this.lastUsage ??
      this.builder.build({
        history: this.history.closedHistory(),
        scratchpad: this.scratchpad,
        question: this.scratchpad.length > 0 ? this.question : '',
      }).totalTokens;
    return shouldCompact({
      lastUsage,
      pendingText,
      messageCount: this.history.messages.length,
      contextWindow: this.options.contextWindow,
      threshold: MCA_THRESHOLD,
    });
  }

  private async compact(): Promise<void> {
    const fixedTokens = this.builder.build({
      history: [],
      scratchpad: this.scratchpad,
      question: this.question,
    }).totalTokens;
    const result = await this.history.compact(standInSummarizer, {
      budgetTokens: Math.floor(this.options.contextWindow * MCA_THRESHOLD),
      fixedTokens,
    });
    for (const degradation of result.degradations) {
      if (degradation.level === 2) this.degradations.level2 += 1;
      else this.degradations.level3 += 1;
    }
    if (result.outcome !== 'nothing_to_compact' || result.degradations.length > 0) {
      this.compactions += 1;
      this.lastUsage = undefined;
    }
  }

  /** One budgeted build, as the loop does it (timed, with its request segments): the in-turn ladder when tight. */
  private build(): ModelCall {
    const limit = this.options.contextWindow * MCA_THRESHOLD;
    const started = performance.now();
    const result = buildWithinBudget(
      this.builder,
      { history: this.history.closedHistory(), scratchpad: this.scratchpad, question: this.question },
      limit,
      this.tightLevel,
    );
    this.degradations.level1 += result.degraded.length;
    this.tightLevel = result.level;
    const segments = segmentsOf(result.context);
    const buildMs = performance.now() - started;
    return { segments, tokens: result.context.totalTokens, buildMs };
  }
}
