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
import { failTurn } from './turn-failure.js';
import { TurnState } from './turn-state.js';

/** The recap the prompt carries; left out once no todo is pending or in progress (nothing left to track). */
function promptTodoRecap(todos: TodoStore): string | undefined {
  const open = todos.list().some((todo) => todo.status === 'pending' || todo.status === 'in_progress');
  return open ? todos.recap() : undefined;
}

/** The least room for a reply a request must leave in the window; a prompt that leaves less is not sent. */
const MIN_OUTPUT_TOKENS = 1_024;

/** What `run` knows about the turn in progress when something throws. */
interface TurnProgress {
  turn: TurnState | undefined;
  ended: boolean;
}

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
  /** The model to start with (default: config.model); the session manager keeps `/model` across sessions. */
  model?: string;
  /** Told when `/model` changes the model, so new and resumed sessions, L1 and the summarizer follow it. */
  onModelChange?: (model: string) => void;
}

export class CodeAgent implements AgentController {
  private modelName: string;
  private approver: Approver;
  /** Set when the person declined a tool and ended the turn (Esc / "No" at the prompt); read after the step. */
  private declinedBy: string | undefined;

  constructor(private readonly deps: CodeAgentDeps) {
    this.modelName = deps.model ?? deps.config.model;
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
    this.deps.onModelChange?.(model);
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

  /**
   * One turn. Whatever throws inside it (a session write failing, a bug) still closes the round as `error` with a
   * code and ends with exactly one `turn_end`, so the next turn starts from a closed history.
   */
  async *run(input: string, options: { signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    const progress: TurnProgress = { turn: undefined, ended: false };
    try {
      for await (const event of this.runTurn(input, options.signal, progress)) {
        if (event.type === 'turn_end') progress.ended = true;
        yield event;
      }
    } catch (error) {
      if (progress.ended) throw error;
      yield* failTurn(this.deps.history, progress.turn, error);
    }
  }

  private async *runTurn(input: string, signal: AbortSignal, progress: TurnProgress): AsyncGenerator<AgentEvent> {
    const { history, config, session } = this.deps;
    // A round a broken consumer or an earlier failure left open would refuse the new user message.
    if (history.openRound()) history.closeOpenRound('interrupted');
    const processed = preprocessInput(input, this.deps.fsView);

    this.declinedBy = undefined;
    const round = history.nextRoundNumber();
    const turn = new TurnState(round, config.maxRepeatedActions);
    progress.turn = turn;
    // The input is on disk before anything slow (a compaction) can start, so a kill then cannot lose it.
    history.append({ role: 'user', content: processed.text, metadata: { round, ts: nowIso() } });
    session.syncRoundEnd();
    yield {
      type: 'turn_start',
      sessionId: this.sessionId,
      round,
      input: processed.text,
      mentions: processed.mentions.map((mention) => mention.display),
    };
    if (this.overBudget(processed.text, [], processed.text)) {
      yield* this.compactNow('threshold', signal, { question: processed.text, scratchpad: [] });
    }

    let emergencyUsed = false;
    for (let step = 1; step <= config.maxSteps; step += 1) {
      if (signal.aborted) return yield* this.closeRound(turn, 'interrupted', 'Interrupted by user.');

      // The last usage already covers everything before the newest observation; only that one is new.
      const newest = turn.scratchpad.at(-1)?.observation ?? '';
      if (step > 1 && this.overBudget(newest, turn.scratchpad, processed.text)) {
        yield* this.compactNow('threshold', signal, { question: processed.text, scratchpad: turn.scratchpad });
      }
      let built = this.buildStep(processed.text, turn);
      for (const message of built.degraded) yield { type: 'degrade', level: 1, message };
      const sendable = config.contextWindow - MIN_OUTPUT_TOKENS;
      if (built.context.totalTokens > sendable) {
        // Measured before sending: a request over the window is never sent (the API would refuse it anyway).
        yield* this.compactNow('emergency', signal, { question: processed.text, scratchpad: turn.scratchpad });
        built = this.buildStep(processed.text, turn);
        if (built.context.totalTokens > sendable) {
          const message =
            `This request would need about ${built.context.totalTokens} tokens, more than the context window ` +
            `(${config.contextWindow}), even after compaction; nothing was sent. Start a new session (/clear) ` +
            'or ask for smaller steps.';
          return yield* this.closeRound(turn, 'error', message, { code: 'CONTEXT_TOO_LARGE' });
        }
      }
      yield { type: 'step_start', step, estimatedTokens: built.context.totalTokens };
      // Prompt + max_tokens must fit the window (the API refuses the request otherwise), so a prompt near the
      // window leaves the reply less room; what is left is named in the output-limit observation if it is hit.
      const maxTokens = Math.min(config.maxOutputTokens, config.contextWindow - built.context.totalTokens);

      const call = yield* streamModelCall(
        this.deps.provider,
        {
          model: this.model,
          ...built.context.toRequestSegments(),
          maxTokens,
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
      const outcome = yield* turn.applyReply(
        call.text,
        { usage: call.usage, stopReason: call.stopReason },
        step,
        this.stepServices(signal, maxTokens),
      );
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
  private stepServices(signal: AbortSignal, outputLimitTokens: number) {
    const { history, registry, projectRoot, fileState, todos } = this.deps;
    return {
      history,
      outputLimitTokens,
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
      { history: history.closedHistory(), scratchpad: turn.scratchpad, question, todoRecap: promptTodoRecap(todos) },
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
