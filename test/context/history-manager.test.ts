import { ARCHIVE_NOTE_HEADING } from '../../src/context/facts-ledger.js';
import { describe, expect, it } from 'vitest';
import { HistoryError, HistoryManager, RETENTION } from '../../src/context/history-manager.js';
import { historyViolations } from '../../src/context/history-invariants.js';
import { toRounds, type Message } from '../../src/context/message.js';
import type { SummarizeOptions, Summarizer, SummaryOutcome } from '../../src/context/summary-compressor.js';
import { closedRound, closedRounds, finish, step, summary, toolResult, usage, user } from './history-fixtures.js';

class FakeSummarizer implements Summarizer {
  calls: Array<{ messages: readonly Message[]; options: SummarizeOptions }> = [];
  constructor(
    private readonly outcome: SummaryOutcome = {
      ok: true,
      text: '## 📌 Archived Session Summary\nok',
      usage: usage(5),
    },
  ) {}
  summarize(messages: readonly Message[], options: SummarizeOptions): Promise<SummaryOutcome> {
    this.calls.push({ messages, options });
    return Promise.resolve(this.outcome);
  }
}

const roundNumbers = (messages: readonly Message[]): number[] => toRounds(messages).map((round) => round.round);

describe('toRounds', () => {
  it('opens a round at each user message, closes it at roundEnd, skips summaries', () => {
    const messages = [summary(1, 2), ...closedRound(3), user(4), step(4, 1)];
    const rounds = toRounds(messages);
    expect(rounds.map((round) => [round.round, round.closed, round.messages.length])).toEqual([
      [3, true, 4],
      [4, false, 2],
    ]);
  });
});

describe('HistoryManager: appending', () => {
  it('counts rounds across summaries', () => {
    const history = new HistoryManager({ minRetainRounds: 2 }, [summary(1, 7), ...closedRound(8)]);
    expect(history.nextRoundNumber()).toBe(9);
    expect(new HistoryManager({ minRetainRounds: 2 }, [summary(1, 7)]).nextRoundNumber()).toBe(8);
    expect(new HistoryManager({ minRetainRounds: 2 }).nextRoundNumber()).toBe(1);
  });

  it('validates round numbers and order, and notifies listeners', () => {
    const history = new HistoryManager({ minRetainRounds: 2 });
    const seen: Message[] = [];
    const off = history.onAppend((message) => seen.push(message));
    expect(() => history.append(user(2))).toThrow(HistoryError);
    history.append(user(1));
    expect(() => history.append(user(2))).toThrow(/still open/);
    expect(() => history.append(toolResult(1, 1))).toThrow(/follow an assistant/);
    expect(() => history.append(step(2, 1))).toThrow(/open round is 1/);
    expect(() => history.append(summary(1, 1))).toThrow(HistoryError);
    history.append(step(1, 1));
    history.append(toolResult(1, 1));
    history.append(finish(1, 2));
    expect(() => history.append(step(1, 3))).toThrow(/needs an open round/);
    expect(seen).toHaveLength(4);
    off();
    history.append(user(2));
    expect(seen).toHaveLength(4);
  });

  it('separates closed history from the open round', () => {
    const history = new HistoryManager({ minRetainRounds: 2 }, [...closedRound(1), user(2), step(2, 1)]);
    expect(history.openRound()?.round).toBe(2);
    expect(history.closedHistory()).toEqual(closedRound(1));
    const closing = history.closeOpenRound('interrupted');
    expect(closing?.metadata).toMatchObject({ round: 2, step: 2, roundEnd: 'interrupted' });
    expect(history.openRound()).toBeUndefined();
    expect(history.closeOpenRound('interrupted')).toBeUndefined();
  });

  it('reports the newest usage, 0 without any', () => {
    const history = new HistoryManager({ minRetainRounds: 2 });
    expect(history.lastUsage()).toBe(0);
    history.append(user(1));
    history.append(
      finish(1, 1, 'answer', {
        inputTokens: 10,
        outputTokens: 2,
        cacheCreationInputTokens: 3,
        cacheReadInputTokens: 4,
      }),
    );
    expect(history.lastUsage()).toBe(19);
  });

  it('triggers compression exactly at the boundary and never below 3 messages', () => {
    const window = { contextWindow: 1000, threshold: 0.8 };
    const history = new HistoryManager({ minRetainRounds: 1 }, [user(1), finish(1, 1, 'answer', usage(797))]);
    expect(history.shouldCompress('x'.repeat(300), window)).toBe(false);
    history.append(user(2));
    expect(history.shouldCompress('abcdefghi', window)).toBe(true);
    expect(history.shouldCompress('abcdefgh', window)).toBe(false);
  });
});

describe('HistoryManager: compaction', () => {
  it('keeps exactly the newest N closed rounds and the open round untouched', async () => {
    const open = [user(13), step(13, 1), toolResult(13, 1)];
    const history = new HistoryManager({ minRetainRounds: 10 }, [...closedRounds(1, 12), ...open]);
    const summarizer = new FakeSummarizer();
    const result = await history.compact(summarizer, { focus: 'auth' });
    expect(result.outcome).toBe('summary');
    expect(result.roundsArchived).toBe(2);
    expect(result.roundsKept).toBe(10);
    expect(roundNumbers(summarizer.calls[0]?.messages ?? [])).toEqual([1, 2]);
    expect(summarizer.calls[0]?.options.focus).toBe('auth');
    expect(history.messages[0]?.role).toBe('summary');
    expect(history.messages[0]?.metadata.coversRounds).toEqual([1, 2]);
    expect(roundNumbers(history.messages)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(history.messages.slice(-3)).toEqual(open);
    expect(historyViolations(history.messages)).toEqual([]);
    expect(history.nextRoundNumber()).toBe(14);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  });

  it('has nothing to compact with N or fewer closed rounds', async () => {
    const history = new HistoryManager({ minRetainRounds: 3 }, [...closedRounds(1, 3), user(4)]);
    const summarizer = new FakeSummarizer();
    const result = await history.compact(summarizer);
    expect(result.outcome).toBe('nothing_to_compact');
    expect(summarizer.calls).toHaveLength(0);
    expect(history.messages).toHaveLength(13);
  });

  it('keeps summaries in order and never sends them to the summarizer', async () => {
    const history = new HistoryManager({ minRetainRounds: 2 }, [summary(1, 4), summary(5, 6), ...closedRounds(7, 10)]);
    const summarizer = new FakeSummarizer();
    await history.compact(summarizer);
    expect(summarizer.calls[0]?.messages.some((message) => message.role === 'summary')).toBe(false);
    expect(
      history.messages.filter((message) => message.role === 'summary').map((m) => m.metadata.coversRounds),
    ).toEqual([
      [1, 4],
      [5, 6],
      [7, 8],
    ]);
    expect(historyViolations(history.messages)).toEqual([]);
  });

  it('never splits an action from its result', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, [
      ...closedRounds(1, 3, 4),
      user(4),
      step(4, 1),
      toolResult(4, 1),
    ]);
    const summarizer = new FakeSummarizer();
    await history.compact(summarizer);
    const archived = summarizer.calls[0]?.messages ?? [];
    expect(archived.filter((m) => m.role === 'tool')).toHaveLength(8);
    expect(archived.filter((m) => m.role === 'assistant' && m.metadata.action)).toHaveLength(8);
    history.messages.forEach((message, index) => {
      if (message.role === 'tool') expect(history.messages[index - 1]?.role).toBe('assistant');
    });
  });

  it('on timeout archives the old part as a deterministic note, with the exact message', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, closedRounds(1, 3));
    const result = await history.compact(new FakeSummarizer({ ok: false, reason: 'timeout', detail: 'slow' }));
    expect(result.outcome).toBe('timeout');
    expect(result.message).toBe('Summary generation timed out, keeping recent history only.');
    expect(roundNumbers(history.messages)).toEqual([3]);
    const notes = history.messages.filter((message) => message.role === 'summary');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.content).toContain(ARCHIVE_NOTE_HEADING);
    expect(notes[0]?.content).toContain('- Requests: R1 "question 1", R2 "question 2"');
    expect(notes[0]?.content).toContain('- Files read: f1.ts (R1), f2.ts (R2)');
    expect(notes[0]?.metadata.coversRounds).toEqual([1, 2]);
    expect(history.nextRoundNumber()).toBe(4);
  });

  it('drops the old part on an empty summary with the failure message', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, closedRounds(1, 3));
    const result = await history.compact(
      new FakeSummarizer({ ok: false, reason: 'empty', detail: 'the model returned an empty summary' }),
    );
    expect(result.outcome).toBe('failed');
    expect(result.message).toBe(
      'Summary generation failed: the model returned an empty summary, keeping recent history only.',
    );
    expect(roundNumbers(history.messages)).toEqual([3]);
  });

  it('treats a summarizer that throws as a failure', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, closedRounds(1, 2));
    const broken: Summarizer = { summarize: () => Promise.reject(new Error('socket closed\nat x')) };
    const result = await history.compact(broken);
    expect(result.outcome).toBe('failed');
    expect(result.message).toBe('Summary generation failed: socket closed, keeping recent history only.');
    expect(roundNumbers(history.messages)).toEqual([2]);
  });

  it('forgets pre-compaction usage until a new call reports one, and emits a snapshot', async () => {
    const messages = [...closedRounds(1, 2), user(3), finish(3, 1, 'answer', usage(150_000))];
    const history = new HistoryManager({ minRetainRounds: 1 }, messages);
    const snapshots: number[] = [];
    history.onSnapshot((list) => snapshots.push(list.length));
    expect(history.lastUsage()).toBe(150_000);
    const result = await history.compact(new FakeSummarizer(), { fixedTokens: 1_000 });
    expect(history.lastUsage()).toBe(1_000 + result.tokensAfter);
    expect(snapshots).toEqual([history.messages.length]);
    history.append(user(4));
    history.append(finish(4, 1, 'answer', usage(42)));
    expect(history.lastUsage()).toBe(42);
  });

  /** Three closed rounds and an open one, each with a Read result of about 1,000 tokens. */
  function bigReadRounds(): HistoryManager {
    const big = JSON.stringify({ status: 'success', data: { blob: 'x'.repeat(3_000) } });
    const rounds = [1, 2, 3].flatMap((round) => [
      user(round),
      step(round, 1),
      toolResult(round, 1, 'Read', big),
      finish(round, 2),
    ]);
    return new HistoryManager({ minRetainRounds: 3 }, [...rounds, user(4), step(4, 1), toolResult(4, 1, 'Read', big)]);
  }

  it('ladder level 2 shrinks tool messages of older retained rounds (the files in use with the newest round)', async () => {
    // Engine v4: every Read here is of a file read in the newest three rounds (the working set), so the first one-line
    // step spares them and they shrink together with the newest closed round.
    const history = bigReadRounds();
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 3_000, fixedTokens: 100 });
    expect(result.outcome).toBe('nothing_to_compact');
    expect(result.degradations.map((d) => d.level)).toEqual([2]);
    const tools = history.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.metadata.shrunk === true)).toEqual([true, true, true, false]);
    expect(JSON.parse(tools[0]?.content ?? '')).toMatchObject({ status: 'success', tool: 'Read' });
    expect(result.roundsKept).toBe(3);
  });

  it('level 2 shrinks down to the low-water mark: the newest closed round too when older ones leave too little room', async () => {
    // With 1,300 fixed tokens, shrinking rounds 1 and 2 gets under the 3,000 budget but not under 75% of it: the next
    // turn would be over again and rewrite the cached prompt again, so round 3's result shrinks now too.
    const history = bigReadRounds();
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 3_000, fixedTokens: 1_300 });
    expect(result.outcome).toBe('nothing_to_compact');
    // (All three Reads are in the working set: they shrink in the one step with the newest round.)
    expect(result.degradations.map((d) => d.level)).toEqual([2]);
    const tools = history.messages.filter((message) => message.role === 'tool');
    // The open round (this turn) is never touched.
    expect(tools.map((message) => message.metadata.shrunk === true)).toEqual([true, true, true, false]);
    expect(result.roundsKept).toBe(3);
  });

  it('ladder level 3 drops the oldest rounds with a warning, never the newest closed or open round', async () => {
    const huge = (round: number) => [user(round, 'q'.repeat(3_000)), finish(round, 1)];
    const history = new HistoryManager({ minRetainRounds: 3 }, [
      ...huge(1),
      ...huge(2),
      ...huge(3),
      user(4, 'q'.repeat(3_000)),
    ]);
    // 3,000 tokens: round 3 (≈1,000), the entry for what leaves and SUMMARY_RESERVE_TOKENS fit; rounds 2 and 3 do not.
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 3_000, fixedTokens: 0 });
    expect(result.degradations.map((d) => d.level)).toEqual([3]);
    expect(result.degradations[0]?.message).toMatch(/^Warning: /);
    expect(roundNumbers(history.messages)).toEqual([3, 4]);
    expect(result.roundsKept).toBe(1);
    expect(historyViolations(history.messages)).toEqual([]);
    // What left the prompt is archived: a note naming each dropped round's request.
    const note = history.messages.find((message) => message.role === 'summary');
    expect(note?.metadata.coversRounds).toEqual([1, 2]);
    expect(note?.content).toMatch(/- Requests: R1 "q{10}.*", R2 "q{10}/);
  });

  it('measures only closed history: the open round (already in fixedTokens) is not counted twice', async () => {
    // Closed rounds ≈ 2 × 3,000 chars = 2,000 tokens; the open round adds 3,000 chars more.
    const huge = (round: number) => [user(round, 'q'.repeat(3_000)), finish(round, 1)];
    const history = new HistoryManager({ minRetainRounds: 3 }, [...huge(1), ...huge(2), user(3, 'q'.repeat(3_000))]);
    const fixedTokens = 1_000; // L1 + this turn's input (the open round's user message)
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 3_100, fixedTokens });
    expect(result.degradations).toEqual([]);
    expect(roundNumbers(history.messages)).toEqual([1, 2, 3]);
  });

  it('retention: a compaction keeps older retained rounds in one-line form with their refs, the newest 3 full', async () => {
    const read = (round: number) =>
      JSON.stringify({
        status: 'success',
        ref: `r00000000000${round}`,
        data: { path: `f${round}.ts`, content: 'x'.repeat(900) },
      });
    const rounds = [1, 2, 3, 4, 5, 6, 7].flatMap((round) => closedRound(round, 1, read(round)));
    const history = new HistoryManager({ minRetainRounds: 5 }, rounds);
    const result = await history.compact(new FakeSummarizer());
    expect(result.outcome).toBe('summary');
    expect(RETENTION.fullRounds).toBe(3);
    const tools = history.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.metadata.round)).toEqual([3, 4, 5, 6, 7]);
    expect(tools.map((message) => message.metadata.shrunk === true)).toEqual([true, true, false, false, false]);
    expect(JSON.parse(tools[0]?.content ?? '')).toEqual({
      status: 'success',
      tool: 'Read',
      ref: 'r000000000003',
      summary: 'read f3.ts lines ?-? of ?',
    });
    // The rounds stay whole: request, step, result and answer of each retained round are all there.
    expect(roundNumbers(history.messages)).toEqual([3, 4, 5, 6, 7]);
    expect(history.messages.filter((message) => message.role === 'user')).toHaveLength(5);
    // Nothing is shrunk when no compaction runs.
    const quiet = new HistoryManager({ minRetainRounds: 10 }, rounds);
    await quiet.compact(new FakeSummarizer());
    expect(quiet.messages.some((message) => message.metadata.shrunk === true)).toBe(false);
  });

  it('never drops rounds when dropping cannot reach the budget, and says so', async () => {
    // Results big enough that their one-line form is shorter (a shorter one is kept as it is).
    const read = JSON.stringify({ status: 'success', data: { path: 'f.ts', content: 'x'.repeat(600) } });
    const rounds = [1, 2, 3].flatMap((round) => closedRound(round, 1, read));
    const history = new HistoryManager({ minRetainRounds: 3 }, [...rounds, user(4)]);
    const before = history.messages.length;
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 1_000, fixedTokens: 5_000 });
    // Older rounds shrink (here all in the working set, so together with the newest closed round), and only then
    // would rounds leave.
    expect(result.degradations.map((d) => d.level)).toEqual([2, 3]);
    expect(result.degradations[0]?.message).toBe(
      'Context still over budget: shrank 3 tool results of the newest closed round and the files in use too.',
    );
    expect(result.degradations.at(-1)?.message).toMatch(/would not bring it under; all rounds were kept/);
    expect(roundNumbers(history.messages)).toEqual([1, 2, 3, 4]);
    expect(history.messages).toHaveLength(before);
  });

  it('applies no ladder when the budget is met', async () => {
    const history = new HistoryManager({ minRetainRounds: 1 }, closedRounds(1, 3));
    const result = await history.compact(new FakeSummarizer(), { budgetTokens: 100_000, fixedTokens: 10 });
    expect(result.degradations).toEqual([]);
  });

  it('rejects an invalid history on load', () => {
    expect(() => new HistoryManager({ minRetainRounds: 1 }, [step(1, 1), toolResult(1, 1)])).toThrow(HistoryError);
    expect(() => new HistoryManager({ minRetainRounds: 1 }, [...closedRound(1), summary(1, 1)])).toThrow(/summary/);
  });
});
