/**
 * Random histories × random compactions through the context engine's compaction step (runCompaction) with a real
 * session file behind them. After every operation: the history keeps its shape, the file reloads to exactly the
 * history in memory, a closed round leaves only into a summary or with the fallback line said aloud, the open
 * round is never touched, summaries are never re-summarized. Finally the file is cut at a random byte (a crash
 * mid-write) and must load as a state the history really passed through. Runs: MCA_FUZZ_RUNS (default 200).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompaction } from '../../src/context/run-compaction.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import { historyViolations } from '../../src/context/history-invariants.js';
import { toRounds, type Message, type RoundEnd } from '../../src/context/message.js';
import type { Summarizer, SummaryOutcome } from '../../src/context/summary-compressor.js';
import { parseSessionText } from '../../src/store/session-records.js';
import { SessionStore } from '../../src/store/session-store.js';
import { ResultLog } from './results.js';

const RUNS = Number(process.env.MCA_FUZZ_RUNS ?? 200);
const TS = '2026-01-01T00:00:00.000Z';
const END = fc.constantFrom<RoundEnd>('finish', 'answer', 'error', 'interrupted', 'step_limit');
type SummaryKind = 'ok' | 'timeout' | 'failed' | 'empty' | 'throws';

const operation = fc.oneof(
  fc.record({ kind: fc.constant('round' as const), steps: fc.array(fc.nat(1_500), { maxLength: 4 }), end: END }),
  fc.record({ kind: fc.constant('open' as const), steps: fc.array(fc.nat(1_500), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('step' as const), size: fc.nat(1_500) }),
  fc.record({ kind: fc.constant('close' as const), end: END }),
  fc.record({
    kind: fc.constant('compact' as const),
    summary: fc.constantFrom<SummaryKind>('ok', 'ok', 'timeout', 'failed', 'empty', 'throws'),
    budget: fc.option(fc.integer({ min: 100, max: 10_000 }), { nil: undefined }),
    fixed: fc.nat(400),
  }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

const scenario = fc.record({
  minRetainRounds: fc.integer({ min: 1, max: 4 }),
  operations: fc.array(operation, { minLength: 1, maxLength: 24 }),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
});

class RandomSummarizer implements Summarizer {
  next: SummaryKind = 'ok';
  archives: Message[][] = [];
  summarize(messages: readonly Message[]): Promise<SummaryOutcome> {
    this.archives.push([...messages]);
    const usage = { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
    switch (this.next) {
      case 'ok':
        return Promise.resolve({ ok: true, text: '## 📌 Archived Session Summary\n- work', usage });
      case 'timeout':
        return Promise.resolve({ ok: false, reason: 'timeout', detail: 'slow' });
      case 'failed':
        return Promise.resolve({ ok: false, reason: 'failed', detail: 'boom' });
      case 'empty':
        return Promise.resolve({ ok: false, reason: 'empty', detail: 'the model returned an empty summary' });
      case 'throws':
        return Promise.reject(new Error('summarizer crashed'));
    }
  }
}

function toolStep(round: number, step: number, size: number): Message[] {
  const action = { tool: 'Read', input: { path: `r${round}s${step}.ts` } };
  return [
    { role: 'assistant', content: `Thought: t\nAction: Read[{}]`, metadata: { round, step, ts: TS, action } },
    {
      role: 'tool',
      content: JSON.stringify({ status: 'success', data: { text: 'd'.repeat(size) } }),
      metadata: { round, step, ts: TS, toolName: 'Read', action },
    },
  ];
}

function closedRoundNumbers(messages: readonly Message[]): number[] {
  return toRounds(messages)
    .filter((round) => round.closed)
    .map((round) => round.round);
}

function covered(messages: readonly Message[], round: number): boolean {
  return messages.some(
    (message) =>
      message.role === 'summary' &&
      message.metadata.coversRounds !== undefined &&
      message.metadata.coversRounds[0] <= round &&
      round <= message.metadata.coversRounds[1],
  );
}

let dir: string;
const log = new ResultLog('property');
let cases = 0;
let casesOk = 0;
let compactions = 0;
let cuts = 0;
let summarized = 0;
let droppedAloud = 0;

async function runCase(input: { minRetainRounds: number; operations: Operation[]; cut: number }): Promise<void> {
  cases += 1;
  const store = new SessionStore(join(dir, `home${cases}`), dir);
  const writer = await store.create('fuzz-model');
  const history = new HistoryManager({ minRetainRounds: input.minRetainRounds });
  history.onAppend((message) => writer.appendMessage(message));
  history.onSnapshot((list) => writer.writeSnapshot([...list]));
  const summarizer = new RandomSummarizer();
  const file = writer.path;
  /** Every state the file passed through: its size then, and the history it encodes. */
  const states: Array<{ size: number; messages: Message[] }> = [];
  const remember = async (): Promise<void> => {
    states.push({ size: (await readFile(file)).length, messages: structuredClone([...history.messages]) });
  };
  const check = async (): Promise<void> => {
    expect(historyViolations(history.messages)).toEqual([]);
    const parsed = parseSessionText(await readFile(file, 'utf8'), 'fuzz');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.messages).toEqual(history.messages);
  };
  await remember();
  try {
    for (const op of input.operations) {
      const open = history.openRound();
      const round = open?.round ?? history.nextRoundNumber();
      const append = async (message: Message): Promise<void> => {
        history.append(message);
        await remember();
      };
      if (op.kind === 'round' || op.kind === 'open') {
        if (open) {
          // Closing is a state of the file too: a cut right after it must load as exactly this.
          history.closeOpenRound('interrupted');
          await remember();
        }
        const number = history.nextRoundNumber();
        await append({ role: 'user', content: `task ${number}`, metadata: { round: number, ts: TS } });
        for (const [index, size] of op.steps.entries())
          for (const m of toolStep(number, index + 1, size)) await append(m);
        if (op.kind === 'round') {
          const step = op.steps.length + 1;
          await append({
            role: 'assistant',
            content: 'Action: Finish[ok]',
            metadata: { round: number, step, ts: TS, roundEnd: op.end },
          });
        }
      } else if (op.kind === 'step' && open) {
        for (const m of toolStep(round, open.messages.length + 1, op.size)) await append(m);
      } else if (op.kind === 'close' && open) {
        history.closeOpenRound(op.end);
        await remember();
      } else if (op.kind === 'compact') {
        compactions += 1;
        summarizer.next = op.summary;
        const before = [...history.messages];
        const openBefore = history.openRound();
        const events: ContextEvent[] = [];
        const run = runCompaction(history, summarizer, {
          reason: 'threshold',
          signal: new AbortController().signal,
          budgetTokens: op.budget ?? 1_000_000,
          fixedTokens: op.fixed,
          tokensBefore: 0,
          measure: () => 0,
        });
        for await (const event of run) events.push(event);
        await remember();
        // The open round is never touched; summaries are never re-summarized.
        expect(history.openRound()).toEqual(openBefore);
        for (const archive of summarizer.archives) expect(archive.some((m) => m.role === 'summary')).toBe(false);
        // A closed round leaves only into a summary, or with the fallback / degradation line told to the user.
        const end = events.find((event) => event.type === 'compaction_end');
        const toldDrop =
          (end?.type === 'compaction_end' &&
            end.message !== undefined &&
            /keeping recent history only\.$/.test(end.message)) ||
          events.some((event) => event.type === 'degrade' && event.level === 3);
        const kept = new Set(closedRoundNumbers(history.messages));
        for (const number of closedRoundNumbers(before)) {
          if (kept.has(number)) continue;
          if (covered(history.messages, number)) summarized += 1;
          else {
            expect(toldDrop).toBe(true);
            droppedAloud += 1;
          }
        }
      }
      await check();
    }
    // A crash mid-write: the file cut at any byte loads as a state the history passed through.
    const text = await readFile(file);
    const at = Math.floor(input.cut * text.length);
    const cutFile = join(dir, `cut${cases}.jsonl`);
    await writeFile(cutFile, text.subarray(0, at));
    const parsed = parseSessionText(await readFile(cutFile, 'utf8'), 'cut');
    const reached = [...states].reverse().find((state) => state.size <= at || state.size - 1 === at);
    expect(parsed.warnings.filter((warning) => !warning.includes('incomplete last line'))).toEqual([]);
    expect(parsed.messages).toEqual(reached?.messages ?? []);
    expect(historyViolations(parsed.messages)).toEqual([]);
    cuts += 1;
    casesOk += 1;
    await rm(cutFile, { force: true });
  } finally {
    writer.close();
    await rm(join(dir, `home${cases}`), { recursive: true, force: true });
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mca-fuzz-'));
});

afterAll(async () => {
  log.fact('cases', cases);
  log.fact('compactions', compactions);
  log.fact('truncated files loaded', cuts);
  log.fact('closed rounds archived into a summary', summarized);
  log.fact('closed rounds dropped with the fallback line shown', droppedAloud);
  log.add({
    group: 'property',
    fault:
      'random histories × random compactions (summary ok / timeout / failed / empty / throws), file cut at a random byte',
    behaviour: 'invariants hold; file reloads to the same history; a cut file loads as an earlier state',
    runs: cases,
    intact: casesOk,
  });
  log.write();
  await rm(dir, { recursive: true, force: true });
});

describe('session history under random compactions (property)', () => {
  it(`keeps every invariant (${RUNS} cases)`, { timeout: 900_000 }, async () => {
    await fc.assert(fc.asyncProperty(scenario, runCase), { numRuns: RUNS });
  });
});
