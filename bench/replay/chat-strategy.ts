/**
 * The chat transcript every peer policy and `naive` send, and the part of their replay they share.
 *
 * A request is the system block (cache breakpoint), then every message in order: each user text, each assistant
 * reply as recorded (its text plus the recorded tool call), each tool result as the full recorded output; the last
 * message carries the second breakpoint. The same cache layout is used for every chat strategy, so the peers differ
 * only by their context policy (which messages are in the request), never by how they place breakpoints.
 *
 * A policy decides in `beforeCall` (before every model call) and `afterTurn` (after a user turn) what to compact,
 * prune or mask; it reports each summary call with its real request through `summaryCall`.
 */
import { estimateTokens } from '../../src/context/token-budget.js';
import { loadPrompt } from '../../src/context/prompt-loader.js';
import { tokensOfChars, type Segment } from './prefix-cache.js';
import {
  charsOf,
  STAND_IN_SUMMARY_TOKENS,
  type ModelCall,
  type ReplayStep,
  type Strategy,
  type StrategyEvent,
  type StrategyName,
  type StrategyOptions,
} from './strategy.js';

export type ChatRole = 'user' | 'assistant' | 'tool' | 'summary';

export interface ChatMessage {
  role: ChatRole;
  text: string;
  /** Tool results only: the mca tool the recorded call maps to, and for Read the file path. */
  tool?: string;
  readPath?: string;
  /** Assistant replies only: true when the reply calls a tool (false for a final answer). */
  callsTool?: boolean;
  /** True once a policy replaced the text (pruned / masked); such a message is not pruned again. */
  shrunk?: boolean;
}

/**
 * The instruction a summary request ends with. Every strategy uses the same text, mca's own summary prompt
 * (prompts/summary.md), so summary requests differ only by what each policy sends along with it.
 */
export function summaryInstruction(): string {
  return loadPrompt('summary');
}

export function assistantTextOf(step: ReplayStep): string {
  const call = step.recordedCall ?? step.answer ?? '';
  return step.thought === '' ? call : `${step.thought}\n${call}`;
}

/** Tokens of a list of messages by the one estimator. */
export function tokensOfMessages(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += message.text.length;
  return tokensOfChars(chars);
}

export abstract class ChatStrategy implements Strategy {
  abstract readonly name: StrategyName;
  messages: ChatMessage[] = [];
  /** Tokens of the previous request, and of its reply (what an API's usage reports after a call). */
  protected lastRequestTokens = 0;
  protected lastOutputTokens = 0;

  constructor(protected readonly options: StrategyOptions) {}

  async startTurn(text: string): Promise<StrategyEvent[]> {
    this.messages.push({ role: 'user', text });
    return [];
  }

  async nextCall(): Promise<{ call: ModelCall; events: StrategyEvent[] }> {
    const events = this.beforeCall();
    const segments = this.segments(this.messages);
    return { call: { segments, tokens: tokensOfChars(charsOf(segments)) }, events };
  }

  record(step: ReplayStep, call: ModelCall): number {
    const reply = assistantTextOf(step);
    const action = step.action;
    this.messages.push({ role: 'assistant', text: reply, callsTool: action !== undefined });
    if (action !== undefined) {
      const path = action.tool === 'Read' ? action.input.path : undefined;
      this.messages.push({
        role: 'tool',
        text: action.envelope.text,
        tool: action.tool,
        ...(typeof path === 'string' ? { readPath: path } : {}),
      });
    }
    this.lastRequestTokens = call.tokens;
    this.lastOutputTokens = estimateTokens(reply);
    return this.lastOutputTokens;
  }

  endTurn(): void {
    this.afterTurn();
  }

  /** The policy's decision before a model call; may replace `messages`. */
  protected abstract beforeCall(): StrategyEvent[];

  /** The policy's work after a user turn ended (nothing by default). */
  protected afterTurn(): void {}

  /** Request segments: the system block, then the messages, breakpoints after the system and on the last one. */
  segments(messages: readonly ChatMessage[], system = this.options.systemText): Segment[] {
    const last = messages.length - 1;
    return [
      { text: system, cacheBreakpoint: true },
      ...messages.map((message, index) => ({ text: message.text, cacheBreakpoint: index === last })),
    ];
  }

  /** Tokens of the request these messages make. */
  requestTokens(messages: readonly ChatMessage[] = this.messages): number {
    return tokensOfChars(charsOf(this.segments(messages)));
  }

  /** A summary call with this request; the reply is the stand-in summary (the same size for every strategy). */
  protected summaryCall(segments: Segment[]): StrategyEvent {
    return { kind: 'summary', segments, outputTokens: STAND_IN_SUMMARY_TOKENS };
  }
}
