/**
 * The ReAct loop. One `run()` is one round: preprocess the input, check the budget, then steps of
 * build → stream → parse → (approve →) tool → scratchpad + compressed history, until the model finishes or the
 * round is closed by an error, an interrupt or the step limit. Every message is appended as it happens.
 */
import type { Config } from '../config/config.js';
import type { BuiltContext, ContextBuilder, ScratchpadStep } from '../context/context-builder.js';
import type { HistoryManager } from '../context/history-manager.js';
import type { FsView } from '../context/input-preprocessor.js';
import { preprocessInput } from '../context/input-preprocessor.js';
import type { Message, RoundEnd } from '../context/message.js';
import { nowIso } from '../context/message.js';
import type { Summarizer } from '../context/summary-compressor.js';
import { estimateTokens } from '../context/token-budget.js';
import { buildWithinBudget } from '../context/turn-budget.js';
import type { ModelProvider } from '../providers/types.js';
import { addUsage, totalUsageTokens } from '../providers/types.js';
import type { SessionWriter } from '../session/session-store.js';
import type { FileStateRecord } from '../tools/file-state.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Approver } from '../tools/tool-context.js';
import type { TodoItem } from '../tools/tool-data.js';
import type { TodoStore } from '../tools/todo-store.js';
import type { AgentController, ContextReport } from './controller.js';
import type { AgentEvent, CompactionReason } from './events.js';
import { contextReportOf } from './context-report.js';
import { runCompaction } from './compaction.js';
import { createApprover, type UserApprover } from './permissions.js';
import { streamModelCall } from './model-call.js';
import { OBSERVATION_STOP } from './react-protocol.js';
import { TurnState } from './turn-state.js';

export interface CodeAgentDeps {
  config: Config;
  provider: ModelProvider;
  registry: ToolRegistry;
  history: HistoryManager;
  builder: ContextBuilder;
  summarizer: Summarizer;
  session: SessionWriter;
  projectRoot: string;
  fsView: FsView;
  todos: TodoStore;
  fileState: FileStateRecord;
  /** Asks the user; absent when nobody can answer (print mode). The permission mode decides first. */
  ask?: Approver;
}

export class CodeAgent implements AgentController {
  private modelName: string;
  private approver: Approver;
  /** Set when the person declined a tool and ended the turn (Esc / "No" at the prompt); read after the step. */
  private declinedBy: string | undefined;

  constructor(private readonly deps: CodeAgentDeps) {
    this.modelName = deps.config.model;
    this.approver = createApprover({ mode: deps.config.permissionMode, ...(deps.ask ? { ask: deps.ask } : {}) });
    // A round left open by a crash is closed before anything else happens, so it renders as history.
    if (deps.history.openRound()) deps.history.closeOpenRound('interrupted');
  }

  get sessionId(): string {
    return this.deps.session.sessionId;
  }

  get projectRoot(): string {
    return this.deps.projectRoot;
  }

  get model(): string {
    return this.modelName;
  }

  setModel(model: string): void {
    this.modelName = model;
  }

  /** Front ends install how to ask the user; the permission mode still decides what needs asking. */
  setApprover(ask: UserApprover): void {
    const asking: Approver = async (request) => {
      const decision = await ask(request);
      if (!decision.approved && decision.endTurn) this.declinedBy = request.title;
      return decision;
    };
    this.approver = createApprover({ mode: this.deps.config.permissionMode, ask: asking });
  }

  /** Flushes and closes the session file; the agent must not be used afterwards. */
  close(): void {
    this.deps.session.close();
  }

  todos(): readonly TodoItem[] {
    return this.deps.todos.list();
  }

  history(): readonly Message[] {
    return this.deps.history.messages;
  }

  contextReport(): ContextReport {
    const built = this.deps.builder.build({ history: this.deps.history.closedHistory(), scratchpad: [], question: '' });
    return contextReportOf(built, this.deps.config, this.deps.history);
  }

  async *compact(options: { focus?: string; signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    yield* this.compactNow('manual', options.signal, { question: '', scratchpad: [], focus: options.focus });
  }

  async *run(input: string, options: { signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    const { history, config } = this.deps;
    const signal = options.signal;
    const processed = preprocessInput(input, this.deps.fsView);

    if (this.overBudget(processed.text, [], processed.text)) {
      yield* this.compactNow('threshold', signal, { question: processed.text, scratchpad: [] });
    }

    this.declinedBy = undefined;
    const round = history.nextRoundNumber();
    const turn = new TurnState(round, config.maxRepeatedActions);
    history.append({ role: 'user', content: processed.text, metadata: { round, ts: nowIso() } });
    yield {
      type: 'turn_start',
      sessionId: this.sessionId,
      round,
      input: processed.text,
      mentions: processed.mentions.map((mention) => mention.display),
    };

    let emergencyUsed = false;
    for (let step = 1; step <= config.maxSteps; step += 1) {
      if (signal.aborted) return yield* this.closeRound(turn, 'interrupted', 'Interrupted by user.');

      // The last usage already covers everything before the newest observation; only that one is new.
      const newest = turn.scratchpad.at(-1)?.observation ?? '';
      if (step > 1 && this.overBudget(newest, turn.scratchpad, processed.text)) {
        yield* this.compactNow('threshold', signal, { question: processed.text, scratchpad: turn.scratchpad });
      }
      const built = this.buildStep(processed.text, turn);
      for (const message of built.degraded) yield { type: 'degrade', level: 1, message };
      yield { type: 'step_start', step, estimatedTokens: built.context.totalTokens };

      const call = yield* streamModelCall(
        this.deps.provider,
        {
          model: this.model,
          ...built.context.toRequestSegments(),
          maxTokens: config.maxOutputTokens,
          stopSequences: [OBSERVATION_STOP],
        },
        step,
        signal,
      );

      if (!call.ok) {
        if (call.error.kind === 'aborted' || signal.aborted) {
          return yield* this.closeRound(turn, 'interrupted', 'Interrupted by user.');
        }
        if (call.error.kind === 'context_too_long' && !emergencyUsed) {
          emergencyUsed = true;
          turn.tightLevel = Math.max(turn.tightLevel, 1);
          yield* this.compactNow('emergency', signal, { question: processed.text, scratchpad: turn.scratchpad });
          step -= 1;
          continue;
        }
        return yield* this.closeRound(turn, 'error', call.error.message, { code: call.error.kind });
      }

      turn.usage = addUsage(turn.usage, call.usage);
      yield { type: 'usage', step, usage: call.usage, contextTokens: totalUsageTokens(call.usage) };
      const outcome = yield* turn.applyReply(call.text, call.usage, step, this.stepServices(signal));
      if (outcome) return yield* this.closeRound(turn, outcome.reason, outcome.answer, outcome.error);
      if (this.declinedBy !== undefined) {
        const message = `The user declined ${this.declinedBy} and stopped the turn; wait for their next message.`;
        return yield* this.closeRound(turn, 'interrupted', message, { code: 'USER_DECLINED' });
      }
    }
    return yield* this.closeRound(
      turn,
      'step_limit',
      `Stopped after ${config.maxSteps} steps without finishing (raise --max-steps or MCA_MAX_STEPS to allow more).`,
      { code: 'STEP_LIMIT' },
    );
  }

  /** What a step needs from the agent, handed to TurnState so it stays free of wiring. */
  private stepServices(signal: AbortSignal) {
    const { history, registry, projectRoot, fileState, todos } = this.deps;
    return {
      history,
      registry,
      toolContext: {
        projectRoot,
        signal,
        fileState,
        todos,
        approve: (request: Parameters<Approver>[0]) => this.approver(request),
      },
    };
  }

  private buildStep(question: string, turn: TurnState): { context: BuiltContext; degraded: string[] } {
    const { builder, history, config, todos } = this.deps;
    const result = buildWithinBudget(
      builder,
      { history: history.closedHistory(), scratchpad: turn.scratchpad, question, todoRecap: todos.recap() },
      config.contextWindow * config.compressionThreshold,
      turn.tightLevel,
    );
    turn.tightLevel = result.level;
    return result;
  }

  /**
   * The trigger of spec A6/C7: last real usage plus the new text's estimate against threshold × window. With no
   * usage to go on (a new or just-compacted session) the estimate of the prompt as it would be built stands in.
   */
  private overBudget(pendingText: string, scratchpad: readonly ScratchpadStep[], question: string): boolean {
    const { history, config, builder } = this.deps;
    if (history.messages.length < 3) return false;
    const last = history.lastUsage();
    const estimate =
      last > 0
        ? last + estimateTokens(pendingText)
        : builder.build({ history: history.closedHistory(), scratchpad, question }).totalTokens;
    return estimate >= config.contextWindow * config.compressionThreshold;
  }

  private async *compactNow(
    reason: CompactionReason,
    signal: AbortSignal,
    turn: { question: string; scratchpad: readonly ScratchpadStep[]; focus?: string | undefined },
  ): AsyncGenerator<AgentEvent> {
    const { history, builder, config, summarizer } = this.deps;
    const measure = () =>
      builder.build({ history: history.closedHistory(), scratchpad: turn.scratchpad, question: turn.question })
        .totalTokens;
    // The last real usage is the truest size of the prompt that triggered this; estimates stand in without one.
    const before = Math.max(history.lastUsage(), measure());
    const fixed = builder.build({ history: [], scratchpad: turn.scratchpad, question: turn.question }).totalTokens;
    yield* runCompaction(history, summarizer, {
      reason,
      ...(turn.focus ? { focus: turn.focus } : {}),
      signal,
      budgetTokens: Math.floor(config.contextWindow * config.compressionThreshold),
      fixedTokens: fixed,
      tokensBefore: before,
      measure,
    });
  }

  private async *closeRound(
    turn: TurnState,
    reason: RoundEnd,
    answer: string,
    error?: { code: string; message?: string },
  ): AsyncGenerator<AgentEvent> {
    const { history, session } = this.deps;
    if (reason !== 'finish' && reason !== 'answer') {
      history.append({
        role: 'assistant',
        content: `[${reason}] ${answer}`,
        metadata: { round: turn.round, step: turn.steps + 1, ts: nowIso(), roundEnd: reason },
      });
    }
    session.syncRoundEnd();
    yield {
      type: 'turn_end',
      reason,
      answer,
      steps: turn.steps,
      usage: turn.usage,
      ...(error ? { error: { code: error.code, message: error.message ?? answer } } : {}),
    };
  }
}
