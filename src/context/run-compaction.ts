/**
 * Runs one compaction of the history and reports it as ContextEvents. The history manager decides what is
 * archived, marks the old usage as superseded and notifies its snapshot listeners (the session store); this module
 * adds the events. Used by the ContextEngine (and by the history fuzz test, which picks its own budgets).
 */
import type { CompactionReason, ContextEvent } from './context-events.js';
import type { HistoryManager } from './history-manager.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import type { Summarizer, SummaryPrefix } from './summary-compressor.js';
import type { FullResults } from './transcript.js';

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
  /** The last request's system and L3 blocks (summary on the cached prefix). */
  prefix?: SummaryPrefix;
  /** Where archive entries leaving the prompt are kept (bounded archive). */
  toolMemory?: ToolMemory;
  /** Full tool results by reference: whole results are measured as the prompt shows them. */
  fullResults?: FullResults;
}

export async function* runCompaction(
  history: HistoryManager,
  summarizer: Summarizer,
  request: CompactionRequest,
): AsyncGenerator<ContextEvent, boolean> {
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
    ...(request.prefix ? { prefix: request.prefix } : {}),
    ...(request.toolMemory ? { toolMemory: request.toolMemory } : {}),
    ...(request.fullResults ? { fullResults: request.fullResults } : {}),
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
