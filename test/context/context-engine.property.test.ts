/**
 * Random sessions through the real ContextEngine (issue 13): whatever the turn sizes, summary outcomes and window,
 * no request the engine hands out as sendable exceeds the window (prompt + reply limit), and every round that ever
 * left the prompt is covered by an archive entry, and every result retention shrank (stale Reads around their edits,
 * bulky results, one-line forms) still names a reference the tool memory recalls, the very full result it shrank;
 * and (engine v4) between compactions and degradations each request starts with every block of the previous one.
 * Runs: MCA_FUZZ_RUNS (default 200, fewer sessions per run).
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
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';

const RUNS = Math.max(20, Math.floor(Number(process.env.MCA_FUZZ_RUNS ?? 200) / 4));

const turn = fc.record({
  inputSize: fc.integer({ min: 1, max: 3_000 }),
  // Observation sizes of the turn's tool steps (characters).
  steps: fc.array(
    fc.record({
      size: fc.integer({ min: 0, max: 40_000 }),
      tool: fc.constantFrom<'Bash' | 'Read' | 'Edit'>('Bash', 'Read', 'Read', 'Edit'),
      file: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 5 },
  ),
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

/** A random step's action and full result: a Bash run, a Read of a file, or an Edit of it. */
function stepOf(tool: 'Bash' | 'Read' | 'Edit', path: string, size: number, step: number) {
  const lines = Array.from({ length: Math.max(1, Math.floor(size / 40)) }, (_, at) => `line ${at} of ${path} ${step}`);
  if (tool === 'Read') {
    const content = lines.map((line, at) => `${at + 1}\t${line}`).join('\n');
    const data = { path, start_line: 1, end_line: lines.length, total_lines: lines.length, content, truncated: false };
    return { action: { tool, input: { path } }, envelope: successEnvelope(data, content) };
  }
  if (tool === 'Edit') {
    const input = { path, old_string: lines[0] ?? '', new_string: `changed in step ${step}` };
    const data = { path, applied: true, replacements: 1, diff: `-${input.old_string}\n+${input.new_string}` };
    return { action: { tool, input }, envelope: successEnvelope(data, data.diff) };
  }
  const output = 'o'.repeat(size);
  const data = { command: `step ${step}`, exit_code: 0, stdout: output, stderr: '' };
  return { action: { tool, input: { command: `step ${step}` } }, envelope: successEnvelope(data, output) };
}

/** The tool-memory reference a stored result names, if any. */
function refOf(content: string): string | undefined {
  try {
    const parsed = JSON.parse(content) as { ref?: unknown };
    return typeof parsed.ref === 'string' ? parsed.ref : undefined;
  } catch {
    return undefined;
  }
}

/** Runs an engine generator to its end; `rewrote` is told when it compacted or degraded anything. */
async function drain<R>(
  run: AsyncGenerator<ContextEvent | { type: 'turn_opened' }, R>,
  rewrote: () => void = () => undefined,
): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) {
    if (next.done) return next.value;
    if (next.value.type === 'compaction_start' || next.value.type === 'degrade') rewrote();
  }
}

describe('ContextEngine (property)', () => {
  it('never hands out a request over the window, and archives every round that leaves', async () => {
    await fc.assert(
      fc.asyncProperty(session, async (s) => {
        const history = new HistoryManager({ minRetainRounds: s.minRetainRounds });
        const summarizer = new OutcomeSummarizer();
        const toolMemory = new InMemoryToolMemory();
        /** The full result each reference stood for when its step was recorded. */
        const fullOf = new Map<string, string>();
        const engine = new ContextEngine({
          history,
          builder: new ContextBuilder({ systemPrompt: 'L1 '.repeat(300) }),
          summarizer,
          contextWindow: s.contextWindow,
          compressionThreshold: s.threshold,
          maxOutputTokens: 4_000,
          toolMemory,
        });
        const signal = new AbortController().signal;
        const everSeen = new Set<number>();
        // The previous request's blocks, and whether anything rewrote the prompt since it was sent.
        let previous: string[] | undefined;
        let rewritten = false;
        const rewrote = () => {
          rewritten = true;
        };
        const check = (prepared: PreparedStep) => {
          if (prepared.kind === 'ready') {
            const { system, user } = prepared.context.toRequestSegments();
            const blocks = [...system, ...user].map((segment) => segment.text);
            if (previous !== undefined && !rewritten) expect(blocks.slice(0, previous.length)).toEqual(previous);
            previous = blocks;
            rewritten = false;
            expect(prepared.context.totalTokens + prepared.maxTokens).toBeLessThanOrEqual(s.contextWindow);
            expect(prepared.context.totalTokens).toBeLessThanOrEqual(s.contextWindow - MIN_OUTPUT_TOKENS);
          }
          for (const message of history.messages) {
            if (message.role !== 'tool' || message.metadata.shrunk !== true) continue;
            const ref = refOf(message.content);
            expect(ref, `a shrunk ${message.metadata.toolName} result lost its reference`).toBeDefined();
            expect(toolMemory.recall(ref ?? '')).toBe(fullOf.get(ref ?? ''));
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
          await drain(engine.beginTurn('q'.repeat(spec.inputSize), signal), rewrote);
          for (const entry of toRounds(history.messages)) everSeen.add(entry.round);
          let stepNo = 0;
          for (const { size, tool, file } of spec.steps) {
            const prepared = await drain(engine.prepareStep(signal), rewrote);
            check(prepared);
            if (prepared.kind === 'too_large') break;
            stepNo += 1;
            const { action, envelope } = stepOf(tool, `src/f${file}.ts`, size, stepNo);
            const usage = { ...ZERO_USAGE, inputTokens: prepared.context.totalTokens, outputTokens: 50 };
            engine.recordReply({ step: stepNo, text: `Thought: t\nAction: ${tool}[{}]`, usage, action });
            const compressed = engine.recordObservation({
              step: stepNo,
              assistantText: 'Thought: t',
              action,
              envelope,
            });
            const ref = refOf(compressed);
            if (ref !== undefined) fullOf.set(ref, toolMemory.recall(ref) ?? '');
          }
          const last = await drain(engine.prepareStep(signal), rewrote);
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
