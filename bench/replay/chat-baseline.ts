/**
 * The two baselines: a chat transcript the way common CLI agents send it. The system prompt is one block
 * (breakpoint), then every message in order: the user task, each assistant reply as recorded (text plus the
 * recorded tool call), each tool result as the full recorded output. The last message carries the second
 * breakpoint (Claude Code style).
 *
 * - naive: nothing is ever removed; a request over the window counts as an overflow and the replay goes on.
 * - full-then-compact: when a request would pass window − 13,000 tokens, every message so far is replaced by
 *   one stand-in summary of the same fixed size as mca's, and nothing else.
 */
import { tokensOfChars, type Segment } from './prefix-cache.js';
import {
  charsOf,
  standInSummary,
  type ModelCall,
  type ReplayStep,
  type Strategy,
  type StrategyName,
  type StrategyOptions,
} from './strategy.js';

/** Headroom the common CLI default keeps below the window before it compacts. */
export const FULL_THEN_COMPACT_HEADROOM = 13_000;

export function assistantTextOf(step: ReplayStep): string {
  const call = step.recordedCall ?? step.answer ?? '';
  return step.thought === '' ? call : `${step.thought}\n${call}`;
}

export class ChatBaseline implements Strategy {
  readonly name: StrategyName;
  compactions = 0;
  private messages: string[] = [];
  private readonly compactAt: number | undefined;

  constructor(
    name: 'naive' | 'full-then-compact',
    private readonly options: StrategyOptions,
  ) {
    this.name = name;
    this.compactAt = name === 'naive' ? undefined : options.contextWindow - FULL_THEN_COMPACT_HEADROOM;
  }

  async startTask(task: string): Promise<void> {
    this.messages.push(task);
  }

  async nextCall(): Promise<ModelCall> {
    const started = performance.now();
    let segments = this.segments();
    if (this.compactAt !== undefined && tokensOfChars(charsOf(segments)) > this.compactAt && this.messages.length > 1) {
      this.messages = [standInSummary(this.messages.length, this.name)];
      this.compactions += 1;
      segments = this.segments();
    }
    const buildMs = performance.now() - started;
    return { segments, tokens: tokensOfChars(charsOf(segments)), buildMs };
  }

  record(step: ReplayStep): void {
    this.messages.push(assistantTextOf(step));
    if (step.action !== undefined) this.messages.push(step.action.envelope.text);
  }

  endTask(): void {}

  private segments(): Segment[] {
    const last = this.messages.length - 1;
    return [
      { text: this.options.systemText, cacheBreakpoint: true },
      ...this.messages.map((text, index) => ({ text, cacheBreakpoint: index === last })),
    ];
  }
}
