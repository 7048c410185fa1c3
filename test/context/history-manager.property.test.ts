/**
 * Random histories through many compactions (DESIGN.md "Compaction" invariants). Runs:
 * MCA_FUZZ_RUNS (default 200).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_INDEX_HEADING } from '../../src/context/archive-bound.js';
import { splitRounds } from '../../src/context/compaction.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import { historyViolations } from '../../src/context/history-invariants.js';
import { toRounds, type Message, type RoundEnd } from '../../src/context/message.js';
import type { Summarizer, SummaryOutcome } from '../../src/context/summary-compressor.js';
import { TS, summary } from './history-fixtures.js';

const RUNS = Number(process.env.MCA_FUZZ_RUNS ?? 200);

interface RoundSpec {
  steps: number[]; // tool result sizes, one per action/result pair
  end: RoundEnd;
  userSize: number;
}

const roundSpec = fc.record({
  steps: fc.array(fc.integer({ min: 0, max: 2_000 }), { maxLength: 4 }),
  end: fc.constantFrom<RoundEnd>('finish', 'answer', 'error', 'interrupted', 'step_limit'),
  userSize: fc.integer({ min: 1, max: 1_500 }),
});

const outcome = fc.constantFrom<'ok' | 'timeout' | 'failed' | 'empty'>('ok', 'timeout', 'failed', 'empty');

const scenario = fc.record({
  minRetainRounds: fc.integer({ min: 1, max: 5 }),
  summaries: fc.integer({ min: 0, max: 3 }),
  initial: fc.array(roundSpec, { maxLength: 14 }),
  open: fc.option(fc.array(fc.integer({ min: 0, max: 2_000 }), { maxLength: 3 }), { nil: undefined }),
  operations: fc.array(
    fc.record({
      newRounds: fc.array(roundSpec, { maxLength: 4 }),
      outcome,
      budget: fc.option(fc.integer({ min: 200, max: 20_000 }), { nil: undefined }),
      fixed: fc.integer({ min: 0, max: 500 }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

function roundMessages(round: number, spec: RoundSpec): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'u'.repeat(spec.userSize), metadata: { round, ts: TS } }];
  spec.steps.forEach((size, index) => {
    const action = { tool: 'Read', input: { path: `r${round}s${index}` } };
    const meta = { round, step: index + 1, ts: TS, action };
    messages.push({ role: 'assistant', content: `Thought: t\nAction: Read[{}]`, metadata: meta });
    messages.push({
      role: 'tool',
      content: JSON.stringify({ status: 'success', data: { blob: 'd'.repeat(size) } }),
      metadata: { ...meta, toolName: 'Read' },
    });
  });
  messages.push({
    role: 'assistant',
    content: 'Thought: done\nAction: Finish[ok]',
    metadata: { round, step: spec.steps.length + 1, ts: TS, roundEnd: spec.end },
  });
  return messages;
}

class RandomSummarizer implements Summarizer {
  sawSummary = false;
  archives: Message[][] = [];
  next: 'ok' | 'timeout' | 'failed' | 'empty' = 'ok';
  summarize(messages: readonly Message[]): Promise<SummaryOutcome> {
    if (messages.some((message) => message.role === 'summary')) this.sawSummary = true;
    this.archives.push([...messages]);
    const results: Record<typeof this.next, SummaryOutcome> = {
      ok: {
        ok: true,
        text: '## 📌 Archived Session Summary\nx',
        usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      },
      timeout: { ok: false, reason: 'timeout', detail: 'slow' },
      failed: { ok: false, reason: 'failed', detail: 'boom' },
      empty: { ok: false, reason: 'empty', detail: 'empty' },
    };
    return Promise.resolve(results[this.next]);
  }
}

describe('HistoryManager compaction (property)', () => {
  it('keeps every invariant through random compactions', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const initial: Message[] = [];
        let round = 0;
        for (let index = 0; index < s.summaries; index += 1) {
          initial.push(summary(round + 1, round + 2));
          round += 2;
        }
        for (const spec of s.initial) initial.push(...roundMessages(++round, spec));
        let openMessages: Message[] = [];
        if (s.open !== undefined) {
          openMessages = roundMessages(++round, { steps: s.open, end: 'finish', userSize: 10 }).slice(0, -1);
          initial.push(...openMessages);
        }
        const history = new HistoryManager({ minRetainRounds: s.minRetainRounds }, initial);
        const summarizer = new RandomSummarizer();
        const everSeen = new Set<number>(toRounds(initial).map((entry) => entry.round));
        const initialSummaries = new Set(initial.filter((message) => message.role === 'summary'));

        for (const operation of s.operations) {
          if (history.openRound() === undefined) {
            for (const spec of operation.newRounds) {
              for (const message of roundMessages(history.nextRoundNumber(), spec)) history.append(message);
            }
          }
          for (const entry of toRounds(history.messages)) everSeen.add(entry.round);
          const before = splitRounds(history.messages);
          const summariesBefore = history.messages.filter((message) => message.role === 'summary');
          const nextBefore = history.nextRoundNumber();
          summarizer.next = operation.outcome;
          const archivesBefore = summarizer.archives.length;
          const result = await history.compact(summarizer, {
            ...(operation.budget !== undefined ? { budgetTokens: operation.budget, fixedTokens: operation.fixed } : {}),
          });
          const after = splitRounds(history.messages);
          const level3 = result.degradations.some((degradation) => degradation.level === 3);

          expect(historyViolations(history.messages)).toEqual([]);
          // The manager's cached view of the open round agrees with a fresh grouping.
          expect(history.openRound()?.messages).toEqual(after.open?.messages);
          expect([...history.closedHistory(), ...(after.open?.messages ?? [])]).toEqual(history.messages);
          expect(summarizer.sawSummary).toBe(false);
          // Existing summaries stay first, unchanged and in order, unless the bounded archive folded the oldest
          // into one index entry (then the ones after the index are unchanged, and the index covers the rest).
          const first = history.messages[0];
          const folded = first !== summariesBefore[0] && first?.content.startsWith(ARCHIVE_INDEX_HEADING) === true;
          if (!folded) expect(history.messages.slice(0, summariesBefore.length)).toEqual(summariesBefore);
          else {
            // The survivors are the newest of the earlier entries, right after the index, in order.
            const survivors = summariesBefore.filter((entry) => history.messages.includes(entry));
            expect(survivors).toEqual(summariesBefore.slice(summariesBefore.length - survivors.length));
            expect(history.messages.slice(1, 1 + survivors.length)).toEqual(survivors);
          }
          // The open round is never touched.
          expect(after.open?.messages).toEqual(before.open?.messages);
          // The archive handed over is whole closed rounds, each starting with its user message.
          for (const archive of summarizer.archives.slice(archivesBefore)) {
            for (const archived of toRounds(archive)) {
              expect(archived.closed).toBe(true);
              expect(archived.messages[0]?.role).toBe('user');
            }
          }
          const expectedKept = Math.min(s.minRetainRounds, before.closed.length);
          if (!level3) expect(after.closed.length).toBeGreaterThanOrEqual(expectedKept);
          if (!level3 && result.roundsArchived > 0) expect(after.closed.length).toBe(s.minRetainRounds);
          // The newest closed round always survives.
          const newest = before.closed[before.closed.length - 1];
          if (newest !== undefined) expect(after.closed.map((r) => r.round)).toContain(newest.round);
          expect(history.nextRoundNumber()).toBe(nextBefore);
          expect(result.roundsKept).toBe(after.closed.length);
          // Every round that ever left the prompt is covered by an archive entry, and an entry written here
          // names its request in the facts ledger (whatever the summary outcome).
          const present = new Set(toRounds(history.messages).map((entry) => entry.round));
          const entries = history.messages.filter((message) => message.role === 'summary');
          for (const gone of [...everSeen].filter((number) => !present.has(number))) {
            const entry = entries.find((candidate) => {
              const [first, last] = candidate.metadata.coversRounds ?? [0, -1];
              return first <= gone && gone <= last;
            });
            expect(entry, `round ${gone} left without an archive entry`).toBeDefined();
            // An index names the folded entries by their span; their full text (with each request) is recallable.
            const isIndex = entry?.content.startsWith(ARCHIVE_INDEX_HEADING) === true;
            if (isIndex) expect(entry?.content).toMatch(/- Rounds \d+–\d+ · (full text not stored|Recall)/);
            const named = !isIndex && !entry?.content.includes('earlier not shown');
            if (entry !== undefined && !initialSummaries.has(entry) && named) {
              expect(entry.content).toContain(`R${gone} "`);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
