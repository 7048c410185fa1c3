/**
 * Scaling: ContextBuilder.build (plus toRequestSegments, what the loop sends) for histories of 100, 1,000 and
 * 10,000 messages with realistic sizes (user 300 chars, assistant step 400, compressed tool result 1,500; rounds
 * of 1 user + 4 steps + a closing answer), and the same with HistoryManager.closedHistory() included, as each
 * agent step does, and "cold": a new builder per build, so every round is rendered from scratch (the builder reuses
 * the rendering of rounds whose messages did not change). Heap delta: heapUsed after − before one build whose result
 * is kept alive, after a GC.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ContextBuilder } from '../src/context/context-builder.js';
import { HistoryManager } from '../src/context/history-manager.js';
import { median, percentile } from './lib/stats.js';

export interface ScalingRow {
  messages: number;
  historyTokens: number;
  buildMedianMs: number;
  buildP95Ms: number;
  stepMedianMs: number;
  stepP95Ms: number;
  /** A new builder for each build: every round rendered from scratch (a resumed session's first step). */
  coldMedianMs: number;
  coldP95Ms: number;
  heapDeltaMb: number;
}

export interface ScalingResult {
  rows: ScalingRow[];
  /** "linear", "sub-linear" or "super-linear", from the 10× steps of the median step time. */
  verdict: string;
}

const TS = new Date(0).toISOString();

function text(kind: string, index: number, chars: number): string {
  return `${kind} ${index}: `.padEnd(chars, 'lorem ipsum dolor sit amet ');
}

/** A history of exactly `count` messages: closed rounds, then an open round with one user message. */
export function syntheticHistory(count: number): HistoryManager {
  const history = new HistoryManager({ minRetainRounds: 10 });
  let round = 0;
  let step = 0;
  while (history.messages.length < count - 1) {
    const left = count - 1 - history.messages.length;
    const open = history.openRound();
    if (open === undefined) {
      round += 1;
      step = 0;
      history.append({ role: 'user', content: text('user', round, 300), metadata: { round, ts: TS } });
    } else if (left <= 1 || step >= 4) {
      step += 1;
      history.append({
        role: 'assistant',
        content: text('answer', round, 400),
        metadata: { round, step, ts: TS, roundEnd: 'answer' },
      });
    } else {
      step += 1;
      // A different file per step: no Read is made stale by a later one, so L3 keeps the size it measures.
      const action = { tool: 'Read', input: { path: `src/f${round}-${step}.ts` } };
      history.append({
        role: 'assistant',
        content: text('Thought', step, 400),
        metadata: { round, step, ts: TS, action },
      });
      history.append({
        role: 'tool',
        content: text('{"status":"success"', step, 1500),
        metadata: { round, step, ts: TS, toolName: 'Read', action },
      });
    }
  }
  if (history.openRound() !== undefined) {
    history.append({
      role: 'assistant',
      content: 'done',
      metadata: { round, step: step + 1, ts: TS, roundEnd: 'answer' },
    });
  }
  history.append({ role: 'user', content: text('user', round + 1, 300), metadata: { round: round + 1, ts: TS } });
  return history;
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}

function timeSync(repeats: number, action: () => unknown): number[] {
  action();
  const samples: number[] = [];
  for (let index = 0; index < repeats; index += 1) {
    const started = performance.now();
    action();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Keeps measured builds alive until the heap has been read. */
const retained: unknown[] = [];

export function runScalingBench(options: { sizes: number[]; repeats: number; systemText: string }): ScalingResult {
  const builder = new ContextBuilder({ systemPrompt: options.systemText });
  const scratchpad = [
    {
      assistant: 'Thought: read it\nAction: Read[{"path":"a.ts"}]',
      observation: text('1\tline', 0, 6000),
      compressed: '{}',
    },
  ];
  const rows: ScalingRow[] = [];
  for (const size of options.sizes) {
    const history = syntheticHistory(size);
    const closed = history.closedHistory();
    const input = { history: closed, scratchpad, question: 'continue' };
    const repeats = Math.max(5, Math.round((options.repeats * 1000) / Math.max(size, 1000)));
    const build = timeSync(repeats, () => builder.build(input).toRequestSegments());
    const step = timeSync(repeats, () =>
      builder.build({ history: history.closedHistory(), scratchpad, question: 'continue' }).toRequestSegments(),
    );
    const cold = timeSync(Math.max(5, Math.round(repeats / 4)), () =>
      new ContextBuilder({ systemPrompt: options.systemText }).build(input).toRequestSegments(),
    );
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const kept = builder.build(input);
    const segments = kept.toRequestSegments();
    const after = process.memoryUsage().heapUsed;
    retained.push(kept, segments);
    rows.push({
      messages: history.messages.length,
      historyTokens: kept.parts.find((part) => part.id === 'l3')?.tokens ?? 0,
      buildMedianMs: median(build),
      buildP95Ms: percentile(build, 95),
      stepMedianMs: median(step),
      stepP95Ms: percentile(step, 95),
      coldMedianMs: median(cold),
      coldP95Ms: percentile(cold, 95),
      heapDeltaMb: (after - before) / 1024 / 1024,
    });
  }
  retained.length = 0;
  return { rows, verdict: verdictOf(rows) };
}

/**
 * The log-log slope of the median step time between the smallest and the largest history: ≈1 is linear.
 * Small histories carry fixed costs (L1, scratchpad), which pulls the slope below 1 (sub-linear).
 */
export function verdictOf(rows: readonly ScalingRow[]): string {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined || rows.length < 2 || first.stepMedianMs <= 0) return 'n/a';
  const slope = Math.log(last.stepMedianMs / first.stepMedianMs) / Math.log(last.messages / first.messages);
  const kind = slope < 0.9 ? 'sub-linear' : slope <= 1.2 ? 'linear' : 'super-linear';
  return `${kind} (log-log slope ${slope.toFixed(2)} from ${first.messages} to ${last.messages} messages)`;
}
