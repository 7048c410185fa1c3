/**
 * mca's summarizer as the bench runs it: the request is the real one (SummaryCompressor.buildPrompt with
 * prompts/summary.md and SUMMARY_SYSTEM, no cache breakpoints, as src/context/summary-compressor.ts sends it) and is
 * recorded so the driver prices it; the reply is the fixed-size stand-in every strategy gets.
 */
import { loadPrompt } from '../../../src/context/prompt-loader.js';
import type { Message } from '../../../src/context/message.js';
import {
  SUMMARY_SYSTEM,
  SummaryCompressor,
  type Summarizer,
  type SummaryOutcome,
} from '../../../src/context/summary-compressor.js';
import type { ModelProvider } from '../../../src/providers/types.js';
import { ZERO_USAGE } from '../../../src/providers/types.js';
import { STAND_IN_SUMMARY_TOKENS, standInSummary, type StrategyEvent } from '../strategy.js';

/** The compressor is used only to build its prompt; the bench never sends a request. */
const NO_MODEL: ModelProvider = {
  name: 'bench-replay',
  stream() {
    throw new Error('the bench replay never calls a model');
  },
};

export class RecordingSummarizer implements Summarizer {
  private readonly compressor = new SummaryCompressor({
    provider: NO_MODEL,
    model: 'bench',
    timeoutMs: 1,
    template: loadPrompt('summary'),
  });
  private recorded: StrategyEvent[] = [];

  async summarize(messages: readonly Message[]): Promise<SummaryOutcome> {
    const prompt = this.compressor.buildPrompt(messages);
    this.recorded.push({
      kind: 'summary',
      segments: [{ text: SUMMARY_SYSTEM }, { text: prompt }],
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
