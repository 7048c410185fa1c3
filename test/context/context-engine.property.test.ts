/**
 * Random sessions through the real ContextEngine (issue 13): whatever the turn sizes, summary outcomes and window,
 * no request the engine hands out as sendable exceeds the window (prompt + reply limit), and every round that ever
 * left the prompt is covered by an archive entry. Runs: MCA_FUZZ_RUNS (default 200, fewer sessions per run).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, MIN_OUTPUT_TOKENS, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import { toRounds, type Message } from '../../src/context/message.js';
import type { Summarizer, SummaryOutcome } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/envelope.js';
import { InMemoryToolMemory } from '../../src/tools/tool-memory.js';

const RUNS = Math.max(20, Math.floor(Number(process.env.MCA_FUZZ_RUNS ?? 200) / 4));

const turn = fc.record({
  inputSize: fc.integer({ min: 1, max: 3_000 }),
  // Observation sizes of the turn's tool steps (characters).
  steps: fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 5 }),
  outcome: fc.constantFrom<'ok' | 'timeout' | 'failed'>('ok', 'ok', 'timeout', 'failed'),
});

const session = fc.record({
  contextWindow: fc.integer({ min: 8_000, max: 60_000 }),
  threshold: fc.constantFrom(0.5, 0.7, 0.8, 0.9),
  minRetainRounds: fc.integer({ min: 1, max: 10 }),
  turns: fc.array(turn, { minLength: 1, maxLength: 12 }),
});

class OutcomeSummarizer implements Summarizer {
  next: 'ok' | 'timeout' | 'failed' = 'ok';
  summarize(messages: readonly Message[]): Promise<SummaryOutcome> {
    if (this.next !== 'ok') return Promise.resolve({ ok: false, reason: this.next, detail: 'random' });
    const text = `## 📌 Archived Session Summary\n${'s'.repeat(Math.min(3_000, messages.length * 50))}`;
    return Promise.resolve({ ok: true, text, usage: { ...ZERO_USAGE } });
  }
}

async function drain<R>(run: AsyncGenerator<ContextEvent | { type: 'turn_opened' }, R>): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) if (next.done) return next.value;
}

describe('ContextEngine (property)', () => {
  it('never hands out a request over the window, and archives every round that leaves', async () => {
    await fc.assert(
      fc.asyncProperty(session, async (s) => {
        const history = new HistoryManager({ minRetainRounds: s.minRetainRounds });
        const summarizer = new OutcomeSummarizer();
        const engine = new ContextEngine({
          history,
          builder: new ContextBuilder({ systemPrompt: 'L1 '.repeat(300) }),
          summarizer,
          contextWindow: s.contextWindow,
          compressionThreshold: s.threshold,
          maxOutputTokens: 4_000,
          toolMemory: new InMemoryToolMemory(),
        });
        const signal = new AbortController().signal;
        const everSeen = new Set<number>();
        const check = (prepared: PreparedStep) => {
          if (prepared.kind === 'ready') {
            expect(prepared.context.totalTokens + prepared.maxTokens).toBeLessThanOrEqual(s.contextWindow);
            expect(prepared.context.totalTokens).toBeLessThanOrEqual(s.contextWindow - MIN_OUTPUT_TOKENS);
          }
          const present = new Set(toRounds(history.messages).map((entry) => entry.round));
          const entries = history.messages.filter((message) => message.role === 'summary');
          for (const gone of [...everSeen].filter((number) => !present.has(number))) {
            const covered = entries.some((entry) => {
              const [first, last] = entry.metadata.coversRounds ?? [0, -1];
              return first <= gone && gone <= last;
            });
            expect(covered, `round ${gone} left without an archive entry`).toBe(true);
          }
        };
        for (const spec of s.turns) {
          summarizer.next = spec.outcome;
          await drain(engine.beginTurn('q'.repeat(spec.inputSize), signal));
          for (const entry of toRounds(history.messages)) everSeen.add(entry.round);
          let stepNo = 0;
          for (const size of spec.steps) {
            const prepared = await drain(engine.prepareStep(signal));
            check(prepared);
            if (prepared.kind === 'too_large') break;
            stepNo += 1;
            const action = { tool: 'Bash', input: { command: `step ${stepNo}` } };
            const usage = { ...ZERO_USAGE, inputTokens: prepared.context.totalTokens, outputTokens: 50 };
            engine.recordReply({ step: stepNo, text: `Thought: t\nAction: Bash[{}]`, usage, action });
            const output = 'o'.repeat(size);
            const data = { command: `step ${stepNo}`, exit_code: 0, stdout: output, stderr: '' };
            engine.recordObservation({
              step: stepNo,
              assistantText: 'Thought: t',
              action,
              envelope: successEnvelope(data, output),
            });
          }
          const last = await drain(engine.prepareStep(signal));
          check(last);
          if (last.kind === 'ready') {
            const usage = { ...ZERO_USAGE, inputTokens: last.context.totalTokens, outputTokens: 20 };
            engine.recordReply({ step: stepNo + 1, text: 'Action: Finish[ok]', usage, roundEnd: 'finish' });
          } else {
            engine.closeTurn('error', last.message);
          }
          for (const entry of toRounds(history.messages)) everSeen.add(entry.round);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
