/**
 * mca's summarizer as the bench runs it: the request is the real one (SummaryCompressor.buildRequest with
 * prompts/summary.md: on the last request's cached prefix when the engine passes one, else the standalone prompt,
 * as src/context/summary-compressor.ts sends it) and is recorded so the driver prices it through the same prompt
 * cache as the model calls; the reply is the fixed-size stand-in every strategy gets.
 */
import { loadPrompt } from '../../../src/context/prompt-loader.js';
import type { Message } from '../../../src/context/message.js';
import {
  SummaryCompressor,
  type SummarizeOptions,
  type Summarizer,
  type SummaryOutcome,
} from '../../../src/context/summary-compressor.js';
import type { ModelProvider } from '../../../src/providers/types.js';
import { ZERO_USAGE } from '../../../src/providers/types.js';
import { STAND_IN_SUMMARY_TOKENS, standInSummary, type StrategyEvent } from '../strategy.js';
import { requestSegments } from './engine-adapter.js';

/** The compressor is used only to build its prompt; the bench never sends a request. */
const NO_MODEL: ModelProvider = {
  name: 'bench-replay',
  stream() {
    throw new Error('the bench replay never calls a model');
  },
};

export class RecordingSummarizer implements Summarizer {
  private readonly compressor: SummaryCompressor;
  private recorded: StrategyEvent[] = [];

  /** `contextWindow` as the product passes it: a prefix request that would not fit falls back to the standalone one. */
  constructor(contextWindow: number) {
    this.compressor = new SummaryCompressor({
      provider: NO_MODEL,
      model: 'bench',
      timeoutMs: 1,
      contextWindow,
      template: loadPrompt('summary'),
    });
  }

  async summarize(messages: readonly Message[], options: SummarizeOptions = {}): Promise<SummaryOutcome> {
    this.recorded.push({
      kind: 'summary',
      segments: requestSegments(this.compressor.buildRequest(messages, options)),
      outputTokens: STAND_IN_SUMMARY_TOKENS,
    });
    return { ok: true, text: standInSummary(messages.length, 'mca'), usage: { ...ZERO_USAGE } };
  }

  /** The summary calls made since the last drain. */
  drain(): StrategyEvent[] {
    const calls = this.recorded;
    this.recorded = [];
    return calls;
  }
}
