/**
 * HistoryManager (spec A4, D2; DESIGN.md "Turn and round", "Compaction"): the session's message list. The
 * agent appends every message as it happens; the session store persists through `onAppend` (and `onSnapshot`
 * after a compaction rewrote the list). Compaction summarizes the oldest closed rounds, keeps the newest
 * `minRetainRounds` verbatim and never touches the open round.
 */
import { archivedUsageField } from './archived-usage.js';
import { totalUsageTokens } from '../providers/types.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import { boundArchive } from './archive-bound.js';
import { archiveNote, summaryWithLedger } from './facts-ledger.js';
import { planCompaction, splitRounds, transcriptChars, withArchiveEntry, type CompactionPlan } from './compaction.js';
import { historyViolations } from './history-invariants.js';
import { retainForCompaction } from './retention.js';
import { lastRoundOf, nowIso, toRounds, type Message, type Round, type RoundEnd } from './message.js';
import {
  SUMMARY_TIMEOUT_MESSAGE,
  summaryFailedMessage,
  type Summarizer,
  type SummaryOutcome,
  type SummaryPrefix,
} from './summary-compressor.js';
import { shouldCompact } from './token-budget.js';
import type { FullResults } from './transcript.js';
import { degradeToBudget, type Degradation } from './degradation-ladder.js';

export { SUMMARY_RESERVE_TOKENS } from './degradation-ladder.js';
import { McaError } from '../errors/mca-error.js';

export type HistoryErrorCode = 'INVALID_ROUND' | 'INVALID_ORDER' | 'INVALID_HISTORY';

/** A message that would break the history's shape. A programming error in the caller, never a user error. */
export class HistoryError extends McaError {
  readonly code: HistoryErrorCode;
  constructor(code: HistoryErrorCode, message: string) {
    super(message);
    this.name = 'HistoryError';
    this.code = code;
  }
}

export interface CompactOptions {
  focus?: string;
  signal?: AbortSignal;
  /** Token budget for L1+L2+history (usually threshold × window); enables degradation levels 2 and 3. */
  budgetTokens?: number;
  /** Estimated tokens of everything that is not history (L1, L2, the input). */
  fixedTokens?: number;
  /** The last request's system and L3 blocks, for a summary on the cached prefix. */
  prefix?: SummaryPrefix;
  /** Where archive entries that leave the prompt (the bounded archive) are kept by reference. */
  toolMemory?: ToolMemory;
  /** Full tool results by reference: whole results are measured (and kept or shrunk) as the prompt shows them. */
  fullResults?: FullResults;
}

export type CompactionOutcome = 'summary' | 'timeout' | 'failed' | 'nothing_to_compact';

export interface CompactionResult {
  outcome: CompactionOutcome;
  /** The exact user-facing line for a timeout or failure. */
  message?: string;
  summary?: Message;
  /** Closed rounds handed to the summarizer (and removed, whatever the outcome). */
  roundsArchived: number;
  /** Closed rounds left in history after compaction and any degradation. */
  roundsKept: number;
  /** Estimated tokens of the whole history before and after. */
  tokensBefore: number;
  tokensAfter: number;
  degradations: Degradation[];
}

const CLOSING_TEXT: Readonly<Record<RoundEnd, string>> = {
  finish: '(The turn ended.)',
  answer: '(The turn ended.)',
  error: '(The turn ended with an error.)',
  interrupted: '(The turn was interrupted by the user.)',
  step_limit: '(The turn stopped at the step limit.)',
};

/**
 * The retention policy (issue 13, BENCHMARKS.md): of the rounds a compaction keeps, the newest `fullRounds` keep
 * their compressed tool results; older kept rounds keep the request, the assistant's words and one-line tool
 * results with references (Recall brings the detail back).
 */
export const RETENTION = Object.freeze({ fullRounds: 3 });

function historyTokens(messages: readonly Message[], full?: FullResults): number {
  return Math.floor(transcriptChars(messages, full) / 3);
}

export class HistoryManager {
  private list: Message[] = [];
  /** Index of the open round's user message, or -1: keeps append and closedHistory O(1)/O(open) per call. */
  private openStart = -1;
  private readonly minRetainRounds: number;
  private readonly appendListeners = new Set<(message: Message) => void>();
  private readonly snapshotListeners = new Set<(messages: readonly Message[]) => void>();
  /** Highest round number ever seen, so numbering keeps growing even if compaction dropped rounds. */
  private highestRound = 0;
  /** Estimated context size right after the last compaction, until a fresh usage arrives. */
  private estimateAfterCompaction: number | undefined;

  constructor(options: { minRetainRounds: number }, initial?: Message[]) {
    this.minRetainRounds = Math.max(1, Math.floor(options.minRetainRounds));
    if (initial !== undefined) this.replaceAll(initial);
  }

  /** Called after every append (including closing markers). Returns an unsubscribe function. */
  onAppend(listener: (message: Message) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Called with the whole new list after a compaction rewrote it (the session store writes a snapshot). */
  onSnapshot(listener: (messages: readonly Message[]) => void): () => void {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener);
  }

  get messages(): readonly Message[] {
    return this.list;
  }

  nextRoundNumber(): number {
    return this.highestRound + 1;
  }

  rounds(): Round[] {
    return toRounds(this.list);
  }

  openRound(): Round | undefined {
    const first = this.list[this.openStart];
    if (this.openStart < 0 || first === undefined) return undefined;
    return { round: first.metadata.round, messages: this.list.slice(this.openStart), closed: false };
  }

  /** Summaries and closed rounds, in order: what L3 renders. */
  closedHistory(): Message[] {
    return this.openStart < 0 ? [...this.list] : this.list.slice(0, this.openStart);
  }

  /**
   * Appends one message. A user message opens round `nextRoundNumber()` and needs no open round; assistant and
   * tool messages belong to the open round; a tool message directly follows an assistant message. Summaries
   * only come from `compact()`.
   */
  append(message: Message): void {
    const open = this.openRound();
    const { role, metadata } = message;
    if (role === 'summary') throw new HistoryError('INVALID_ORDER', 'summaries are added by compact(), not append()');
    if (role === 'user') {
      if (open !== undefined) {
        throw new HistoryError(
          'INVALID_ORDER',
          `round ${open.round} is still open; close it before a new user message`,
        );
      }
      if (metadata.round !== this.nextRoundNumber()) {
        throw new HistoryError('INVALID_ROUND', `expected round ${this.nextRoundNumber()}, got ${metadata.round}`);
      }
    } else {
      if (open === undefined) throw new HistoryError('INVALID_ORDER', `a ${role} message needs an open round`);
      if (metadata.round !== open.round) {
        throw new HistoryError('INVALID_ROUND', `the open round is ${open.round}, got ${metadata.round}`);
      }
      const previous = open.messages[open.messages.length - 1];
      if (role === 'tool' && previous?.role !== 'assistant') {
        throw new HistoryError('INVALID_ORDER', 'a tool message must directly follow an assistant message');
      }
    }
    this.list.push(message);
    if (role === 'user') this.openStart = this.list.length - 1;
    if (metadata.roundEnd !== undefined) this.openStart = -1;
    this.highestRound = Math.max(this.highestRound, lastRoundOf(message));
    for (const listener of this.appendListeners) listener(message);
  }

  /** Closes an open round that lacks a closing message (interrupt, crash recovery). */
  closeOpenRound(reason: RoundEnd): Message | undefined {
    const open = this.openRound();
    if (open === undefined) return undefined;
    const steps = open.messages.map((message) => message.metadata.step ?? 0);
    const closing: Message = {
      role: 'assistant',
      content: CLOSING_TEXT[reason],
      metadata: { round: open.round, step: Math.max(0, ...steps) + 1, ts: nowIso(), roundEnd: reason },
    };
    this.append(closing);
    return closing;
  }

  /**
   * Tokens of the previous model call: the newest message's usage. After a compaction that usage measured the
   * old, longer context, so until a new call reports usage this returns the post-compaction estimate.
   */
  lastUsage(): number {
    for (let index = this.list.length - 1; index >= 0; index -= 1) {
      const metadata = this.list[index]?.metadata;
      if (metadata?.usage === undefined) continue;
      if (metadata.usageSuperseded !== true) return totalUsageTokens(metadata.usage);
      return this.estimateAfterCompaction ?? historyTokens(this.list);
    }
    return this.estimateAfterCompaction ?? 0;
  }

  shouldCompress(pendingText: string, budget: { contextWindow: number; threshold: number }): boolean {
    return shouldCompact({
      lastUsage: this.lastUsage(),
      pendingText,
      messageCount: this.list.length,
      contextWindow: budget.contextWindow,
      threshold: budget.threshold,
    });
  }

  planCompaction(): CompactionPlan {
    return planCompaction(this.list, this.minRetainRounds);
  }

  async compact(summarizer: Summarizer, options: CompactOptions = {}): Promise<CompactionResult> {
    const startLength = this.list.length;
    const tokensBefore = historyTokens(this.list, options.fullResults);
    const plan = this.planCompaction();
    let retained = plan.retain;
    // Retention within the budget (retention.ts): when rounds are archived anyway, retained rounds keep shorter
    // tool results (with their references), in the same rewrite of the cached prefix.
    if (plan.roundsArchived > 0) retained = retainForCompaction(retained, options, RETENTION.fullRounds);
    // The ladder runs before the summary call, measuring with the entry to come, so rounds it drops join the
    // same archive entry: one summary call covers everything that leaves.
    const ladder = degradeToBudget(retained, plan.archive, options, this.minRetainRounds, (gone) =>
      this.summaryMessage(archiveNote(gone), gone),
    );
    retained = ladder.messages;
    const archived = ladder.archive;
    let outcome: CompactionOutcome = 'nothing_to_compact';
    let message: string | undefined;
    let summary: Message | undefined;
    let next = retained;
    if (archived.length > 0) {
      const result: SummaryOutcome = !ladder.summarize
        ? { ok: false, reason: 'failed', detail: 'no room for a summary within the budget' }
        : await summarizer
            .summarize(archived, {
              ...(options.focus !== undefined ? { focus: options.focus } : {}),
              ...(options.signal !== undefined ? { signal: options.signal } : {}),
              ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
            })
            // The Summarizer contract says "never throws"; a broken one still must not lose the session.
            .catch((error: unknown): SummaryOutcome => ({
              ok: false,
              reason: 'failed',
              detail: error instanceof Error ? error.message.split('\n')[0] || 'unknown error' : String(error),
            }));
      let entry: Message;
      if (result.ok) {
        outcome = 'summary';
        summary = this.summaryMessage(summaryWithLedger(result.text, archived), archived);
        entry = summary;
      } else {
        outcome = result.reason === 'timeout' ? 'timeout' : 'failed';
        message = result.reason === 'timeout' ? SUMMARY_TIMEOUT_MESSAGE : summaryFailedMessage(result.detail);
        // The archived rounds still leave a trace: their facts ledger (never just dropped).
        entry = this.summaryMessage(archiveNote(archived), archived);
      }
      // Messages appended while the summarizer ran belong after everything retained.
      next = [...withArchiveEntry(retained, entry), ...this.list.slice(startLength)];
      // The archive stays bounded: its oldest entries leave whole, by reference, behind one index entry.
      if (options.budgetTokens !== undefined) {
        next = boundArchive(next, options.budgetTokens, options.toolMemory).messages;
      }
    }
    const compacted = outcome !== 'nothing_to_compact' || ladder.applied.length > 0;
    // A ladder that could only warn (this turn alone is over the budget) changed nothing: no snapshot to write.
    const changed = next.length !== this.list.length || next.some((entry, index) => entry !== this.list[index]);
    if (compacted && changed) this.install(next, options.fixedTokens ?? 0, options.fullResults);
    return {
      outcome,
      ...(message !== undefined ? { message } : {}),
      ...(summary !== undefined ? { summary } : {}),
      roundsArchived: toRounds(archived).length,
      roundsKept: splitRounds(this.list).closed.length,
      tokensBefore,
      tokensAfter: historyTokens(this.list, options.fullResults),
      degradations: ladder.applied,
    };
  }

  /** Replaces the whole list (session load). The list must be a valid history. */
  replaceAll(messages: Message[]): void {
    const problems = historyViolations(messages);
    if (problems.length > 0) throw new HistoryError('INVALID_HISTORY', `invalid history: ${problems[0]}`);
    this.list = [...messages];
    this.openStart = this.findOpenStart();
    this.highestRound = messages.reduce((highest, message) => Math.max(highest, lastRoundOf(message)), 0);
    this.estimateAfterCompaction = undefined;
  }

  private findOpenStart(): number {
    const open = splitRounds(this.list).open;
    const first = open?.messages[0];
    return first === undefined ? -1 : this.list.lastIndexOf(first);
  }

  private summaryMessage(text: string, archive: readonly Message[]): Message {
    const first = archive[0]?.metadata.round ?? this.highestRound;
    const last = archive.reduce((highest, entry) => Math.max(highest, entry.metadata.round), first);
    return {
      role: 'summary',
      content: text,
      metadata: { round: last, ts: nowIso(), coversRounds: [first, last], ...archivedUsageField(archive) },
    };
  }

  /** Installs a compacted list: checks the invariants, marks old usage as superseded, notifies listeners. */
  private install(next: Message[], fixedTokens: number, full?: FullResults): void {
    const problems = historyViolations(next);
    if (problems.length > 0) throw new HistoryError('INVALID_HISTORY', `compaction broke history: ${problems[0]}`);
    this.list = next.map((entry) =>
      entry.metadata.usage !== undefined && entry.metadata.usageSuperseded !== true
        ? { ...entry, metadata: { ...entry.metadata, usageSuperseded: true } }
        : entry,
    );
    this.openStart = this.findOpenStart();
    this.estimateAfterCompaction = fixedTokens + historyTokens(this.list, full);
    for (const listener of this.snapshotListeners) listener(this.list);
  }
}
