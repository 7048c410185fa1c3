/**
 * The ReAct loop. One `run()` is one round: preprocess the input, check the budget, then steps of
 * build → stream → parse → (approve →) tool → scratchpad + compressed history, until the model finishes or the
 * round is closed by an error, an interrupt or the step limit. Every message is appended as it happens.
 */
import type { Config, PermissionMode } from '../config/config.js';
import type { ContextEngine } from '../context/context-engine.js';
import type { FsView } from '../context/input-preprocessor.js';
import { preprocessInput } from '../context/input-preprocessor.js';
import type { MemoryEntry } from '../context/memory-files.js';
import type { Message, RoundEnd } from '../context/message.js';
import type { BuiltContext } from '../context/context-builder.js';
import type { ImagePart, ModelProvider, ModelRequest, ToolSpec, WebSearchOptions } from '../providers/types.js';
import { addUsage, totalUsageTokens } from '../providers/types.js';
import { withoutImages } from '../providers/image-fallback.js';
import { takesImages } from '../config/model-profiles.js';
import type { SessionWriter } from '../store/session-store.js';
import type { FileStateRecord } from '../tools/files/file-state.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { DecideFn } from '../tools/registry/define-tool.js';
import { approvalTitle, callSubject } from '../tools/registry/approval.js';
import type { TodoItem } from '../tools/registry/tool-data.js';
import type { TodoStore } from '../tools/planning/todo-store.js';
import type { AgentController, ContextReport } from './controller.js';
import type { AgentEvent } from './events.js';
import { contextReportOf } from './context-report.js';
import type { CallGate } from './controller.js';
import type { SessionSettings } from './session-settings.js';
import { withPlanModeReminder } from './plan-mode.js';
import { withCarriedUsage } from './carried-usage.js';
import { attachImages } from './attachments.js';
import type { EnvironmentView } from '../config/child-environment.js';
import type { PathCheck } from '../permissions/path-screen.js';
import { streamModelCall } from './model-call.js';
import { applyNativeReply } from './native-step.js';
import { withToolProtocolHint } from './tool-protocol-hint.js';
import { OBSERVATION_STOP } from './react-protocol.js';
import { failTurn } from './turn-failure.js';
import { keepAnswerOnFailure } from './unsaved-answer.js';
import { TurnState } from './turn-state.js';
import { noteAgentStep } from './memory-mode.js';

/** The API's least thinking budget, and the room for the visible reply max_tokens keeps beside it. */
const MIN_THINKING_BUDGET = 1_024;
const MIN_THINKING_ROOM = 1_024;

/** What `run` knows about the turn in progress when something throws. */
interface TurnProgress {
  turn: TurnState | undefined;
  ended: boolean;
}

export interface CodeAgentDeps {
  config: Config;
  provider: ModelProvider;
  registry: ToolRegistry;
  /** The context engine of this session (history, builder, trigger, compaction, ladders, window check). */
  context: ContextEngine;
  session: SessionWriter;
  projectRoot: string;
  fsView: FsView;
  todos: TodoStore;
  fileState: FileStateRecord;
  /** The memory files of L2; their list backs /memory. */
  memory?: { read(): string | undefined; entries(): readonly MemoryEntry[] };
  /** Read deny rules: an `@image.png` they cover is not attached (as the Read tool would refuse it). */
  readDenied?: PathCheck;
  /** The runtime's environment, handed to every tool call (`ToolContext.env`). */
  env?: EnvironmentView;
  /**
   * The permission mode and model, shared by every session of one front end (the session manager's one copy);
   * default: a copy of config's, for an agent made on its own.
   */
  settings?: SessionSettings;
  /**
   * Native tool use: the `tools` definitions, the same value the context engine gives its summary request (so both
   * start on one cached prefix); a function when the list can change while the session runs. The registry's
   * current list when not given.
   */
  toolSpecs?: ToolSpec[] | (() => ToolSpec[]);
  /** The session's added directories, read at each step (`/add-dir` takes effect at the next one). */
  extraRoots?: () => readonly string[];
  /** Native tool use: the provider's web search to offer, read at each step (absent or undefined: none). */
  webSearch?: () => WebSearchOptions | undefined;
}

export class CodeAgent implements AgentController {
  /** Read on every step and every call: Shift+Tab, an approved plan and `/model` take effect at once. */
  private readonly settings: SessionSettings;
  /**
   * The session's decision point and path screen (src/driver/decision-point.ts), installed by the session driver;
   * until then every call is refused, so no call can run unjudged.
   */
  private gate: CallGate = { decide: async () => ({ behavior: 'deny', message: 'no decision point is installed' }) };
  /** Set when the person declined a tool and ended the turn (Esc / "No" at the prompt); read after the step. */
  private declinedBy: string | undefined;

  constructor(private readonly deps: CodeAgentDeps) {
    this.settings = deps.settings ?? { model: deps.config.model, mode: deps.config.permissionMode };
  }

  get sessionId(): string {
    return this.deps.session.sessionId;
  }

  get projectRoot(): string {
    return this.deps.projectRoot;
  }

  get model(): string {
    return this.settings.model;
  }

  get permissionMode(): PermissionMode {
    return this.settings.mode;
  }

  setPermissionMode(mode: PermissionMode): void {
    this.settings.mode = mode;
  }

  setModel(model: string): void {
    this.settings.model = model;
  }

  /**
   * The session driver installs the decision point every call passes (and the rules' path screen). A denial with
   * `interrupt` (the person declined and stopped the turn) ends the round after that step (reason `interrupted`,
   * code USER_DECLINED).
   */
  setDecisionPoint(gate: CallGate): void {
    const decide: DecideFn = async (call, request) => {
      const decision = await gate.decide(call, request);
      if (decision.behavior === 'deny' && decision.interrupt) {
        this.declinedBy = request?.title ?? approvalTitle(call.name, callSubject(call.input));
      }
      return decision;
    };
    this.gate = { ...gate, decide };
  }

  /** Flushes and closes the session file; the agent must not be used afterwards. */
  close(): void {
    this.deps.session.close();
  }

  todos(): readonly TodoItem[] {
    return this.deps.todos.list();
  }

  memoryFiles(): readonly MemoryEntry[] {
    const memory = this.deps.memory;
    if (!memory) return [];
    memory.read();
    return memory.entries();
  }

  history(): readonly Message[] {
    return this.deps.context.history.messages;
  }

  contextReport(): ContextReport {
    const { context, config } = this.deps;
    return contextReportOf(context.closedContext(), config, context.history);
  }

  async *compact(options: { focus?: string; signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    yield* this.deps.context.compact(options);
  }

  /**
   * One turn. Whatever throws inside it (a session write failing, a bug) still closes the round as `error` with a
   * code and ends with exactly one `turn_end`, so the next turn starts from a closed history.
   */
  async *run(
    input: string,
    options: { signal: AbortSignal; images?: readonly ImagePart[]; mentionText?: string },
  ): AsyncGenerator<AgentEvent> {
    const progress: TurnProgress = { turn: undefined, ended: false };
    try {
      const turn = this.runTurn(input, options.signal, progress, options.images ?? [], options.mentionText);
      for await (const event of turn) {
        if (event.type === 'turn_end') progress.ended = true;
        yield event;
      }
    } catch (error) {
      if (progress.ended) throw error;
      yield* failTurn(this.deps.context, progress.turn, error);
    }
  }

  private async *runTurn(
    input: string,
    signal: AbortSignal,
    progress: TurnProgress,
    given: readonly ImagePart[],
    mentionText: string | undefined,
  ): AsyncGenerator<AgentEvent> {
    const { context, config, session } = this.deps;
    const preprocessed = preprocessInput(
      this.settings.mode === 'plan' ? withPlanModeReminder(input) : input,
      this.deps.fsView,
      mentionText,
    );
    const attached = attachImages(
      preprocessed.text,
      preprocessed.images,
      given,
      this.deps.projectRoot,
      this.deps.readDenied,
    );
    const processed = { ...preprocessed, text: attached.text };

    this.declinedBy = undefined;
    const turn = new TurnState(config.maxRepeatedActions);
    progress.turn = turn;
    for await (const event of context.beginTurn(processed.text, signal, attached.images)) {
      if (event.type !== 'turn_opened') {
        yield event;
        continue;
      }
      // The input is on disk before anything slow (a compaction) can start, so a kill then cannot lose it.
      session.syncRoundEnd();
      yield {
        type: 'turn_start',
        sessionId: this.sessionId,
        round: event.round,
        input: processed.text,
        mentions: processed.mentions.map((mention) => mention.display),
      };
    }
    for (const note of attached.notes) yield { type: 'warning', message: note };
    for (let step = 1; step <= config.maxSteps; step += 1) {
      if (signal.aborted) return yield* this.closeRound(turn, 'interrupted', 'Interrupted by user.');
      // Tools still arriving (MCP servers connecting, at most MCP_TIMEOUT): the first request waits for them; what
      // a tool source reported since (a server that failed) is shown before the step.
      await this.deps.registry.toolsArrived();
      for (const message of this.deps.registry.takeNotices()) yield { type: 'warning', message };

      const stop = this.settings.stepGuard?.();
      if (stop) return yield* this.closeRound(turn, 'error', stop.message, stop);
      noteAgentStep();
      const prepared = yield* context.prepareStep(signal);
      if (prepared.kind === 'too_large') {
        return yield* this.closeRound(turn, 'error', prepared.message, { code: prepared.code });
      }
      const { totalTokens } = prepared.context;
      yield { type: 'step_start', step, estimatedTokens: totalTokens, ...(this.native ? { native: true } : {}) };
      const request = this.request(prepared);
      const streamed = yield* streamModelCall(this.deps.provider, request, step, signal);
      // Each call's usage names its model: /cost prices it at that model's rates after a /model switch too, and a
      // call a fallback model answered (the provider names it) at the fallback's rates.
      const answeredBy = streamed.ok ? (streamed.usage.model ?? request.model) : request.model;
      const call = streamed.ok ? { ...streamed, usage: { ...streamed.usage, model: answeredBy } } : streamed;

      if (!call.ok) {
        if (call.error.kind === 'aborted' || signal.aborted) {
          return yield* this.closeRound(turn, 'interrupted', 'Interrupted by user.');
        }
        if (call.error.kind === 'context_too_long' && (yield* context.recoverFromOverflow(signal))) {
          step -= 1;
          continue;
        }
        const message = this.native ? withToolProtocolHint(call.error) : call.error.message;
        return yield* this.closeRound(turn, 'error', message, { code: call.error.kind });
      }

      turn.usage = addUsage(turn.usage, call.usage);
      yield { type: 'usage', step, usage: call.usage, contextTokens: totalUsageTokens(call.usage) };
      const services = this.stepServices(signal, prepared.maxTokens);
      const contextTokens = totalUsageTokens(call.usage);
      const outcome = this.native
        ? yield* withCarriedUsage(
            applyNativeReply(turn, call, step, { ...services, stopped: () => this.declinedBy !== undefined }),
            turn,
            step,
            contextTokens,
          )
        : yield* withCarriedUsage(
            turn.applyReply(call.text, { usage: call.usage, stopReason: call.stopReason }, step, services),
            turn,
            step,
            contextTokens,
          );
      if (outcome) {
        const structured = outcome.structuredOutput === undefined ? {} : { structuredOutput: outcome.structuredOutput };
        return yield* this.closeRound(turn, outcome.reason, outcome.answer, outcome.error, structured);
      }
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

  private get native(): boolean {
    return this.deps.config.toolProtocol === 'native';
  }

  /** The model request of a step in the session's tool protocol (DESIGN.md "Tool protocol"). */
  private request(prepared: { context: BuiltContext; maxTokens: number }): ModelRequest {
    const request = this.requestFor(prepared);
    // A model that takes no images gets a one-line note in place of each (never a request its server refuses).
    return takesImages(this.model) ? request : withoutImages(request);
  }

  private requestFor(prepared: { context: BuiltContext; maxTokens: number }): ModelRequest {
    const { config, registry } = this.deps;
    if (!this.native) {
      return {
        model: this.model,
        ...prepared.context.toRequestSegments(),
        maxTokens: prepared.maxTokens,
        stopSequences: [OBSERVATION_STOP],
      };
    }
    const given = this.deps.toolSpecs;
    // Read at every step: a tool registered or removed while the session runs is in (or out of) the next request.
    const tools = typeof given === 'function' ? given() : (given ?? registry.toolSpecs());
    // The API wants max_tokens above the thinking budget: the budget yields when the window leaves less room.
    const budget = config.thinking === 'off' ? 0 : Math.min(config.thinking, prepared.maxTokens - MIN_THINKING_ROOM);
    const thinking = budget >= MIN_THINKING_BUDGET ? { thinkingBudget: budget } : {};
    const webSearch = this.deps.webSearch?.();
    return {
      model: this.model,
      ...prepared.context.toNativeRequest(),
      tools,
      ...(webSearch ? { webSearch } : {}),
      maxTokens: prepared.maxTokens,
      ...thinking,
    };
  }

  /** What a step needs from the agent, handed to TurnState so it stays free of wiring. */
  private stepServices(signal: AbortSignal, outputLimitTokens: number) {
    const { context, registry, projectRoot, fileState, todos } = this.deps;
    const { gate } = this;
    return {
      context,
      outputLimitTokens,
      registry,
      toolContext: {
        projectRoot,
        ...(this.deps.extraRoots ? { extraRoots: this.deps.extraRoots() } : {}),
        signal,
        fileState,
        todos,
        gate,
        ...(gate.pathScreen ? { pathScreen: gate.pathScreen } : {}),
        ...(context.toolMemory ? { toolMemory: context.toolMemory } : {}),
        ...(this.deps.env ? { env: this.deps.env } : {}),
      },
    };
  }

  private async *closeRound(
    turn: TurnState,
    reason: RoundEnd,
    answer: string,
    error?: { code: string; message?: string },
    extra: { structuredOutput?: unknown } = {},
  ): AsyncGenerator<AgentEvent> {
    const { context, session } = this.deps;
    // A Finish or an answer already closed the round with the reply itself.
    if (reason !== 'finish' && reason !== 'answer') context.closeTurn(reason, answer);
    if (reason === 'finish' || reason === 'answer') keepAnswerOnFailure(answer, () => session.syncRoundEnd());
    else session.syncRoundEnd();
    yield {
      type: 'turn_end',
      reason,
      answer,
      steps: turn.steps,
      usage: turn.usage,
      ...(error ? { error: { code: error.code, message: error.message ?? answer } } : {}),
      ...extra,
    };
  }
}
