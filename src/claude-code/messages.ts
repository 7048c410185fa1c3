/**
 * AgentEvent → Claude Code's stream-json messages (DESIGN.md "Claude Code compatibility"). One translator per
 * session; `event()` returns the lines an event makes (often none), `result()` the `result` line of a turn.
 *
 * Contract:
 * - Each block of a model reply is one `assistant` line (text, thinking, or a `tool_use` with the call's id and its
 *   input in Claude Code's names); the lines of one reply share `message.id`, `stop_reason` is null (streamed).
 * - Each tool result is one `user` line with a `tool_result` block paired by `tool_use_id`.
 * - A reply that ran nothing and was answered by mca itself (an empty reply, a call written as text) shows its text
 *   as an `assistant` line and mca's answer to it as a `system` line `mca_reply_refused`.
 * - Retries, model requests (with partial messages) and compactions are Claude Code's `api_retry`, `status` and
 *   `compact_boundary` lines (claude-code-system.ts); mca-only events (compaction details, degrade steps, warnings)
 *   are `system` lines with an `mca_` subtype.
 * - The result: `success` for an answer, `error_max_turns` after the step limit, `error_during_execution` for an
 *   error or an interrupt; `total_cost_usd` and `modelUsage` are the session's totals so far (as Claude Code's),
 *   `usage`, `num_turns` (model replies), durations and `permission_denials` are the turn's.
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../loop/events.js';
import type { Usage } from '../providers/types.js';
import { addUsage, ZERO_USAGE } from '../providers/types.js';
import { ccUsage, type ModelUsageLedger } from './usage.js';
import { PartialStream } from './stream-events.js';
import { claudeCodeSystemLines } from './system.js';
import { STRUCTURED_OUTPUT_RETRIES } from '../loop/final-tool.js';
import { MAX_BUDGET_USD } from './cost-budget.js';
import type {
  CcApiMessage,
  CcAssistantBlock,
  CcMessage,
  CcPermissionDenial,
  CcResultError,
  CcResultMessage,
  CcStreamEvent,
  UUID,
} from './types.js';

type TurnEnd = Extract<AgentEvent, { type: 'turn_end' }>;

export interface TranslatorOptions {
  sessionId: () => string;
  /** The conversation's model now (it may change between turns). */
  model: () => string;
  /** mca's tool input in Claude Code's names (the shared mapping module). */
  toClaudeCodeInput: (tool: string, input: unknown) => unknown;
  ledger: ModelUsageLedger;
  includePartialMessages?: boolean;
  /** Clock in ms (tests may fix it). */
  now?: () => number;
  /** A subagent's translator: the Agent call whose subagent this is (every line's `parent_tool_use_id`). */
  parentToolUseId?: string;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function messageId(): string {
  return `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** The mca-only event kinds and their subtypes. */
const MCA_SUBTYPES: Partial<Record<AgentEvent['type'], `mca_${string}`>> = {
  compaction_start: 'mca_compaction_start',
  compaction_end: 'mca_compaction_end',
  degrade: 'mca_degrade',
  model_fallback: 'mca_model_fallback',
  warning: 'mca_warning',
  web_search: 'mca_web_search',
};

/**
 * Why mca stopped a turn itself, as the result's mca-only `mca_stop` (the subtype stays one the SDK knows:
 * `error_during_execution` for the first three).
 */
const MCA_STOPS: Readonly<Record<string, string>> = {
  REPEATED_ACTION: 'repeated_calls',
  STALLED: 'stalled',
  TERMINATED: 'terminated',
  [MAX_BUDGET_USD]: 'max_budget_usd',
  [STRUCTURED_OUTPUT_RETRIES]: 'structured_output_retries',
};

/** The result subtype of a turn that did not end with an answer. */
function errorSubtype(end: TurnEnd | undefined): CcResultError['subtype'] {
  if (end?.reason === 'step_limit') return 'error_max_turns';
  if (end?.error?.code === STRUCTURED_OUTPUT_RETRIES) return 'error_max_structured_output_retries';
  if (end?.error?.code === MAX_BUDGET_USD) return 'error_max_budget_usd';
  return 'error_during_execution';
}

export class ClaudeCodeTranslator {
  private readonly now: () => number;
  private readonly partial = new PartialStream();
  private turnStartedAt: number;
  private apiMs = 0;
  private stepStartedAt: number | undefined;
  private replies = 0;
  private turnUsage: Usage = ZERO_USAGE;
  private denials: CcPermissionDenial[] = [];
  /** The reply being shown: its message id, usage, whether it called a tool, and its thinking so far. */
  private step = { id: messageId(), usage: ZERO_USAGE, calledTools: false, thinking: '' };
  /** A reply that called nothing: its text waits to learn whether it is the answer or a refused reply. */
  private pendingText: string | undefined;
  private readonly calls = new Set<string>();

  constructor(private readonly options: TranslatorOptions) {
    this.now = options.now ?? Date.now;
    this.turnStartedAt = this.now();
  }

  /** The lines one event makes. */
  event(event: AgentEvent): CcMessage[] {
    const out: CcMessage[] = [];
    if (event.type !== 'tool_end') out.push(...this.flushPending(event.type === 'turn_end' ? event : undefined));
    // Claude Code's own lines for retries, requests and compactions (a step's `requesting` precedes its stream).
    const partial = this.options.includePartialMessages === true && this.options.parentToolUseId === undefined;
    if (event.type === 'step_start') out.push(...this.stream(this.partial.end(this.step.calledTools)));
    for (const line of claudeCodeSystemLines(event, { partial }))
      out.push({ ...line, ...this.envelope() } as CcMessage);
    switch (event.type) {
      case 'turn_start':
        this.beginTurn();
        break;
      case 'step_start':
        this.step = { id: messageId(), usage: ZERO_USAGE, calledTools: false, thinking: '' };
        this.stepStartedAt = this.now();
        out.push(...this.stream(this.partial.start(this.apiMessage([], ZERO_USAGE))));
        break;
      case 'text_delta':
        out.push(...this.stream(this.partial.delta('text', event.text)));
        break;
      case 'thinking_delta':
        this.step.thinking += event.text;
        out.push(...this.stream(this.partial.delta('thinking', event.text)));
        break;
      case 'usage':
        this.noteUsage(event.usage);
        out.push(...this.stream(this.partial.replyDone(event.usage.outputTokens)));
        break;
      case 'assistant_step':
        out.push(...this.thinkingLine());
        if (event.action === null) this.pendingText = event.raw;
        else if (event.thought.trim() !== '')
          out.push(this.assistant({ type: 'text', text: event.thought, citations: null }));
        break;
      case 'tool_start':
        this.calls.add(event.id);
        this.step.calledTools = true;
        out.push(this.assistant({ type: 'tool_use', id: event.id, name: event.tool, input: this.ccInput(event) }));
        break;
      case 'tool_end':
        out.push(...this.toolEnd(event));
        break;
      case 'turn_end':
        out.push(...this.stream(this.partial.end(this.step.calledTools)));
        break;
      default: {
        const subtype = MCA_SUBTYPES[event.type];
        if (subtype) {
          const { type: _type, ...fields } = event;
          out.push({ type: 'system', subtype, ...fields, ...this.envelope() });
        }
      }
    }
    return out;
  }

  /** The `result` line of the turn that `end` closed (undefined: the turn never ended; an error then). */
  result(end: TurnEnd | undefined): CcResultMessage {
    const usage = end?.usage ?? this.turnUsage;
    const base = {
      type: 'result' as const,
      duration_ms: Math.max(0, Math.round(this.now() - this.turnStartedAt)),
      duration_api_ms: Math.round(this.apiMs),
      num_turns: Math.max(this.replies, end?.steps ?? 0),
      total_cost_usd: this.options.ledger.totalCost(),
      usage: ccUsage(usage),
      modelUsage: this.options.ledger.modelUsage(),
      permission_denials: [...this.denials],
      ...this.envelope(),
    };
    if (end && (end.reason === 'answer' || end.reason === 'finish')) {
      const structured = end.structuredOutput === undefined ? {} : { structured_output: end.structuredOutput };
      // A StructuredOutput call ended the turn (the model's reply stopped to call a tool, as Claude Code reports).
      const stop = end.structuredOutput === undefined ? 'end_turn' : 'tool_use';
      return { ...base, subtype: 'success', is_error: false, result: end.answer, stop_reason: stop, ...structured };
    }
    const subtype = errorSubtype(end);
    const message = end?.answer ?? 'the turn ended without an answer';
    // An answer that arrived but could not be saved is still reported (as Claude Code has no such case, beside
    // the error): `result` holds it, `errors` says what failed.
    const unsaved = end?.unsavedAnswer === undefined ? {} : { result: end.unsavedAnswer };
    const stop = end?.error ? MCA_STOPS[end.error.code] : undefined;
    const reason = stop === undefined ? {} : { mca_stop: stop };
    return { ...base, subtype, is_error: true, stop_reason: null, errors: [message], ...unsaved, ...reason };
  }

  /** A new turn: its clock, usage and denials start again (session totals stay). */
  beginTurn(): void {
    this.turnStartedAt = this.now();
    this.apiMs = 0;
    this.replies = 0;
    this.turnUsage = ZERO_USAGE;
    this.denials = [];
    this.pendingText = undefined;
  }

  private envelope(): { uuid: UUID; session_id: string } {
    return { uuid: randomUUID(), session_id: this.options.sessionId() };
  }

  private noteUsage(usage: Usage): void {
    this.replies += 1;
    if (this.stepStartedAt !== undefined) this.apiMs += this.now() - this.stepStartedAt;
    this.stepStartedAt = undefined;
    this.step.usage = usage;
    this.turnUsage = addUsage(this.turnUsage, usage);
    // A subagent's usage names the model it ran on: it is priced (and listed) under that model.
    this.options.ledger.add(usage.model ?? this.options.model(), usage);
  }

  private ccInput(event: { tool: string; input: unknown }): Record<string, unknown> {
    return asRecord(this.options.toClaudeCodeInput(event.tool, event.input));
  }

  private apiMessage(content: CcAssistantBlock[], usage: Usage): CcApiMessage {
    return {
      id: this.step.id,
      type: 'message',
      role: 'assistant',
      model: this.options.model(),
      content,
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      context_management: null,
      diagnostics: null,
      usage: ccUsage(usage),
    };
  }

  private assistant(block: CcAssistantBlock): CcMessage {
    return {
      type: 'assistant',
      message: this.apiMessage([block], this.step.usage),
      parent_tool_use_id: this.options.parentToolUseId ?? null,
      ...this.envelope(),
    };
  }

  private thinkingLine(): CcMessage[] {
    const thinking = this.step.thinking;
    this.step.thinking = '';
    return thinking.trim() === '' ? [] : [this.assistant({ type: 'thinking', thinking, signature: '' })];
  }

  /** The text of a reply that called nothing: the turn's answer when the turn ends with it, else the reply as is. */
  private flushPending(end: TurnEnd | undefined): CcMessage[] {
    const text = this.pendingText;
    this.pendingText = undefined;
    if (text === undefined) return [];
    const shown = end && (end.reason === 'answer' || end.reason === 'finish') ? end.answer : text;
    return shown.trim() === '' ? [] : [this.assistant({ type: 'text', text: shown, citations: null })];
  }

  private toolEnd(event: Extract<AgentEvent, { type: 'tool_end' }>): CcMessage[] {
    if (!this.calls.delete(event.id)) {
      // mca's own answer to a reply that ran nothing (no tool_use was shown for it).
      const shown = this.flushPending(undefined);
      const notice = { type: 'system' as const, subtype: 'mca_reply_refused' as const, message: event.result.text };
      return [...shown, { ...notice, ...this.envelope() }];
    }
    if (event.result.error?.code === 'PERMISSION_DENIED') {
      this.denials.push({ tool_name: event.tool, tool_use_id: event.id, tool_input: this.ccInput(event) });
    }
    return [
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: event.id,
              content: event.result.text,
              is_error: event.result.status === 'error',
            },
          ],
        },
        parent_tool_use_id: this.options.parentToolUseId ?? null,
        ...this.envelope(),
      },
    ];
  }

  private stream(events: CcStreamEvent[]): CcMessage[] {
    if (this.options.includePartialMessages !== true) return [];
    return events.map((event) => ({
      type: 'stream_event',
      event,
      parent_tool_use_id: this.options.parentToolUseId ?? null,
      ...this.envelope(),
    }));
  }
}
