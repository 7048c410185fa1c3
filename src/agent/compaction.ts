/**
 * Runs one compaction of the history and reports it as AgentEvents. The history manager decides what is
 * archived, marks the old usage as superseded and notifies its snapshot listeners (the session store); this module
 * adds what the loop owns: the events.
 */
import type { HistoryManager } from '../context/history-manager.js';
import type { Summarizer } from '../context/summary-compressor.js';
import type { AgentEvent, CompactionReason } from './events.js';

export interface CompactionRequest {
  reason: CompactionReason;
  focus?: string;
  signal: AbortSignal;
  /** Tokens the history may occupy after compaction (threshold × window minus the fixed parts). */
  budgetTokens: number;
  /** Tokens of everything that is not history: L1, L2, this turn's input and scratchpad. */
  fixedTokens: number;
  /** Estimated prompt size now, for the before → after line. */
  tokensBefore: number;
  /** Estimates the prompt size after compaction. */
  measure: () => number;
}

export async function* runCompaction(
  history: HistoryManager,
  summarizer: Summarizer,
  request: CompactionRequest,
): AsyncGenerator<AgentEvent, boolean> {
  const plan = history.planCompaction();
  yield {
    type: 'compaction_start',
    reason: request.reason,
    tokensBefore: request.tokensBefore,
    roundsToArchive: plan.roundsArchived,
  };
  const result = await history.compact(summarizer, {
    ...(request.focus ? { focus: request.focus } : {}),
    signal: request.signal,
    budgetTokens: request.budgetTokens,
    fixedTokens: request.fixedTokens,
  });
  for (const degradation of result.degradations) {
    yield { type: 'degrade', level: degradation.level, message: degradation.message };
  }
  const changed = result.outcome !== 'nothing_to_compact' || result.degradations.length > 0;
  yield {
    type: 'compaction_end',
    reason: request.reason,
    outcome: result.outcome,
    tokensBefore: request.tokensBefore,
    tokensAfter: request.measure(),
    roundsKept: result.roundsKept,
    roundsArchived: result.roundsArchived,
    ...(result.message ? { message: result.message } : {}),
  };
  return changed;
}
