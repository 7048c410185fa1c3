/**
 * Degradation levels 2 and 3 of compaction (DESIGN.md "Compaction"): what happens when summarizing the oldest
 * rounds is not enough to bring the history under its budget. Split out of history-manager.ts: that file owns the
 * message list, this one only decides what a compaction keeps.
 */
import {
  closedPart,
  dropOldestRounds,
  shrinkOlderToolMessages,
  transcriptChars,
  withArchiveEntry,
} from './compaction.js';
import type { Message } from './message.js';
import { LOW_WATER } from './token-budget.js';
import type { FullResults } from './transcript.js';
import { retainWithinBudget, workingSetResults } from './retention.js';

/** Room the ladder keeps for a model-written summary beside its ledger (a typical A5 summary). */
export const SUMMARY_RESERVE_TOKENS = 1_500;

/** One step the ladder took, with the line the user sees. */
export interface Degradation {
  level: 2 | 3;
  message: string;
}

export interface LadderBudget {
  /** Token budget for L1+L2+history; without it the ladder does nothing. */
  budgetTokens?: number;
  /** Estimated tokens of everything that is not history (L1, L2, the input). */
  fixedTokens?: number;
  /** Full tool results by reference: a whole result is measured as the prompt shows it. */
  fullResults?: FullResults;
}

export interface LadderResult {
  /** The retained list (no archive entry yet). */
  messages: Message[];
  /** Everything that leaves the prompt. */
  archive: Message[];
  applied: Degradation[];
  /** False when only the ledger fits beside the retained rounds: no summary is asked for. */
  summarize: boolean;
}

/**
 * Applies levels 2 and 3 only while the history (with the archive entry to come for `archive`) is over the
 * budget. Only the closed part is measured: the open round is this turn's input and scratchpad, already counted
 * in `fixedTokens`. `ledgerEntry(gone)` is the archive entry (ledger only) the history would carry for `gone`.
 */
export function degradeToBudget(
  messages: Message[],
  archive: readonly Message[],
  options: LadderBudget,
  minRetainRounds: number,
  ledgerEntry: (gone: readonly Message[]) => Message,
): LadderResult {
  const applied: Degradation[] = [];
  const kept = (list: Message[]): LadderResult => ({ messages: list, archive: [...archive], applied, summarize: true });
  if (options.budgetTokens === undefined) return kept(messages);
  const budget = options.budgetTokens;
  const fixed = options.fixedTokens ?? 0;
  const full = options.fullResults;
  // What the entry for `gone` will take: its ledger, plus (`reserve`) room for a model summary.
  const fits = (
    list: readonly Message[],
    gone: readonly Message[],
    reserve = SUMMARY_RESERVE_TOKENS,
    limit = budget,
  ): boolean => {
    const measured = gone.length === 0 ? list : withArchiveEntry(list, ledgerEntry(gone));
    const room = gone.length === 0 ? 0 : reserve;
    return fixed + room + Math.floor(transcriptChars(closedPart(measured), full) / 3) <= limit;
  };
  if (fits(messages, archive)) return kept(messages);
  // Shrinking goes down to the low-water mark when it can, so the next turns have room before the next shrink:
  // each shrink rewrites the cached prompt from the first round it changes, this turn's steps included.
  const lowWater = Math.floor(budget * LOW_WATER);
  // By value first (retention.ts): stale Reads, bulky results outside the working set, the rest, the working set last.
  const entry =
    archive.length === 0 ? 0 : SUMMARY_RESERVE_TOKENS + Math.floor(transcriptChars([ledgerEntry(archive)]) / 3);
  const byValue = retainWithinBudget(messages, lowWater - fixed - entry, full);
  if (byValue.shrunk > 0) {
    applied.push({
      level: 2,
      message:
        `Context still over budget: ${byValue.shrunk} older tool results took a shorter form ` +
        '(stale reads and bulky results first, the files in use last).',
    });
  }
  if (fits(byValue.messages, archive, SUMMARY_RESERVE_TOKENS, lowWater)) return kept(byValue.messages);
  // One line for every older result but the working set's (the files in use), which shrink with the newest round.
  const shrunk = shrinkOlderToolMessages(byValue.messages, 1, full, workingSetResults(byValue.messages));
  let current = shrunk.messages;
  if (shrunk.shrunk > 0) {
    applied.push({
      level: 2,
      message: `Context still over budget: shrank ${shrunk.shrunk} tool results of older rounds to one line each.`,
    });
  }
  if (fits(current, archive, SUMMARY_RESERVE_TOKENS, lowWater)) return kept(current);
  // The newest closed round and the working set shrink too (their results stay recallable) before rounds leave and
  // before this turn's own steps degrade.
  const newest = shrinkOlderToolMessages(current, 0, full);
  if (newest.shrunk > 0) {
    current = newest.messages;
    applied.push({
      level: 2,
      message: `Context still over budget: shrank ${newest.shrunk} tool results of the newest closed round and the files in use too.`,
    });
  }
  if (fits(current, archive)) return kept(current);
  // Fewest rounds with room for a summary; else fewest with the ledger alone (then no summary is asked for).
  let summarize = true;
  let dropped = dropOldestRounds(current, (remaining, gone) => fits(remaining, [...archive, ...gone]));
  if (dropped === undefined) {
    summarize = false;
    dropped = dropOldestRounds(current, (remaining, gone) => fits(remaining, [...archive, ...gone], 0));
  }
  if (dropped === undefined) {
    applied.push({
      level: 3,
      message:
        'Warning: context still over budget, and dropping older rounds would not bring it under; ' +
        'all rounds were kept.',
    });
    return kept(current);
  }
  applied.push({
    level: 3,
    message:
      `Warning: context still over budget; archived the ${dropped.dropped} oldest rounds too, keeping ` +
      `${dropped.kept} (fewer than the minimum of ${minRetainRounds}).`,
  });
  return { messages: dropped.messages, archive: [...archive, ...dropped.gone], applied, summarize };
}
