/**
 * A scripted AgentController / SessionManager for UI tests: each `run` replays events from a script
 * the test provides, and records what the UI asked for (inputs, signals, approvals, models).
 */
import type { PermissionMode } from '../../src/config/config.js';
import type { MemoryEntry } from '../../src/context/memory-files.js';
import type {
  AgentController,
  CallGate,
  ContextReport,
  SessionInfo,
  SessionManager,
} from '../../src/loop/controller.js';
import type { AgentEvent } from '../../src/loop/events.js';
import type { Message } from '../../src/context/message.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import type { UserDecision } from '../../src/driver/permission-broker.js';
import type { DecideFn, PermissionDecision } from '../../src/tools/registry/define-tool.js';
import type { ApprovalRequest } from '../../src/tools/registry/tool-context.js';
import type { TodoItem } from '../../src/tools/registry/tool-data.js';

export interface ScriptContext {
  input: string;
  signal: AbortSignal;
  /**
   * Passes a call asking `request` through the decision point the driver installed (fails the test if none), and
   * gives its answer as the person's: approved (remember, persist), or not with the reason (endTurn: stopped).
   */
  approve(request: ApprovalRequest): Promise<UserDecision>;
}

export type Script = (context: ScriptContext) => AsyncGenerator<AgentEvent>;

export const DEFAULT_REPORT: ContextReport = {
  contextWindow: 200_000,
  compressionThreshold: 0.8,
  parts: [
    { id: 'l1', label: 'L1 system + tools', tokens: 4_000 },
    { id: 'l2', label: 'L2 CODE_LAW', tokens: 1_000 },
    { id: 'l3', label: 'L3 history', tokens: 20_000 },
    { id: 'summaries', label: 'Summaries', tokens: 2_000 },
    { id: 'input', label: 'Current turn', tokens: 500 },
  ],
  lastUsage: 30_000,
  rounds: 12,
  summaries: 1,
  profile: { name: 'claude (200k)', overridden: ['minRetainRounds'] },
};

/** A decision as the person's answer it came from. */
function userDecisionOf(decision: PermissionDecision): UserDecision {
  if (decision.behavior === 'allow') {
    return {
      approved: true,
      ...(decision.remember === undefined ? {} : { remember: decision.remember }),
      ...(decision.persist === undefined ? {} : { persist: decision.persist }),
    };
  }
  return {
    approved: false,
    ...(decision.message === undefined ? {} : { reason: decision.message }),
    ...(decision.interrupt ? { endTurn: true } : {}),
  };
}

export class FakeController implements AgentController {
  model = 'fake-model';
  readonly projectRoot: string;
  /** The decision point the driver installed. */
  approver: DecideFn | undefined;
  readonly runs: Array<{ input: string; signal: AbortSignal }> = [];
  readonly compactions: Array<{ focus: string | undefined; signal: AbortSignal }> = [];
  readonly decisions: UserDecision[] = [];
  report: ContextReport = DEFAULT_REPORT;
  todoList: TodoItem[] = [];
  messages: Message[] = [];

  constructor(
    readonly sessionId: string,
    public script: Script = answerScript('ok'),
    public compactScript: Script = compactionScript(),
    projectRoot = '/tmp/project',
  ) {
    this.projectRoot = projectRoot;
  }

  private context(input: string, signal: AbortSignal): ScriptContext {
    return {
      input,
      signal,
      approve: async (request) => {
        if (!this.approver) throw new Error('no decision point installed');
        const call = {
          id: `toolu_fake${this.decisions.length}`,
          name: request.tool,
          input: request.input,
          source: 'model' as const,
        };
        const decision = userDecisionOf(await this.approver(call, request));
        this.decisions.push(decision);
        return decision;
      },
    };
  }

  run(input: string, options: { signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    this.runs.push({ input, signal: options.signal });
    return this.script(this.context(input, options.signal));
  }

  compact(options: { focus?: string; signal: AbortSignal }): AsyncGenerator<AgentEvent> {
    this.compactions.push({ focus: options.focus, signal: options.signal });
    return this.compactScript(this.context(options.focus ?? '', options.signal));
  }

  contextReport(): ContextReport {
    return this.report;
  }

  todos(): readonly TodoItem[] {
    return this.todoList;
  }

  memoryList: MemoryEntry[] = [];
  permissionMode: PermissionMode = 'default';

  setPermissionMode(mode: PermissionMode): void {
    this.permissionMode = mode;
  }

  memoryFiles(): readonly MemoryEntry[] {
    return this.memoryList;
  }

  history(): readonly Message[] {
    return this.messages;
  }

  setModel(model: string): void {
    this.model = model;
  }

  setDecisionPoint(gate: CallGate): void {
    this.approver = gate.decide;
  }
}

export class FakeSessions implements SessionManager {
  readonly created: FakeController[] = [];
  sessionList: SessionInfo[] = [];
  readonly resumed: string[] = [];

  constructor(public active: FakeController = new FakeController('session-aaaa1111')) {}

  current(): AgentController {
    return this.active;
  }

  async newSession(): Promise<AgentController> {
    this.active = new FakeController(`session-new${this.created.length + 1}`);
    this.created.push(this.active);
    return this.active;
  }

  async listSessions(): Promise<SessionInfo[]> {
    return this.sessionList;
  }

  async resume(sessionId: string): Promise<AgentController> {
    this.resumed.push(sessionId);
    this.active = new FakeController(sessionId);
    return this.active;
  }
}

export function turnStart(input: string, mentions: string[] = []): AgentEvent {
  return { type: 'turn_start', sessionId: 'session-aaaa1111', round: 1, input, mentions };
}

export function turnEnd(reason: 'finish' | 'answer' | 'interrupted' | 'error', answer: string): AgentEvent {
  return { type: 'turn_end', reason, answer, steps: 1, usage: { ...ZERO_USAGE } };
}

export function envelope(data: Record<string, unknown>, extras: Partial<ToolEnvelope> = {}): ToolEnvelope {
  return { status: 'success', data, text: '', stats: { durationMs: 1 }, context: {}, ...extras };
}

/** A turn that streams `answer` in two deltas and finishes. */
export function answerScript(answer: string): Script {
  return async function* ({ input }) {
    yield turnStart(input);
    yield { type: 'step_start', step: 1, estimatedTokens: 100 };
    const half = Math.floor(answer.length / 2);
    yield { type: 'text_delta', step: 1, text: answer.slice(0, half) };
    yield { type: 'text_delta', step: 1, text: answer.slice(half) };
    yield { type: 'assistant_step', step: 1, thought: '', action: null, raw: answer };
    yield {
      type: 'usage',
      step: 1,
      usage: { inputTokens: 1000, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      contextTokens: 50_000,
    };
    yield turnEnd('answer', answer);
  };
}

/** A manual compaction that succeeds after `gate` resolves (so tests can see the progress line). */
export function compactionScript(gate: Promise<void> = Promise.resolve()): Script {
  return async function* () {
    yield { type: 'compaction_start', reason: 'manual', tokensBefore: 150_000, roundsToArchive: 5 };
    await gate;
    yield {
      type: 'compaction_end',
      reason: 'manual',
      outcome: 'summary',
      tokensBefore: 150_000,
      tokensAfter: 20_000,
      roundsKept: 10,
      roundsArchived: 5,
    };
  };
}

/** Resolves once the signal aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A promise with its resolver, to hold a script at a point until the test releases it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
