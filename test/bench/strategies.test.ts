import { describe, expect, it } from 'vitest';
import { ChatBaseline, FULL_THEN_COMPACT_HEADROOM } from '../../bench/replay/chat-baseline.js';
import { replay, toDays } from '../../bench/replay/driver.js';
import { McaStrategy, mcaReply, segmentsOf } from '../../bench/replay/mca-strategy.js';
import {
  STAND_IN_SUMMARY_TOKENS,
  standInSummary,
  type ReplayStep,
  type ReplayTask,
} from '../../bench/replay/strategy.js';
import { successEnvelope } from '../../src/tools/envelope.js';
import { ContextBuilder } from '../../src/context/context-builder.js';

const SYSTEM = 'You are mca. '.repeat(50);

function readStep(chars: number, index: number): ReplayStep {
  const text = `${index}`.padEnd(chars, 'x');
  const data = {
    path: `f${index}.py`,
    start_line: 1,
    end_line: 1,
    total_lines: 1,
    content: `1\t${text}`,
    truncated: false,
    mtime_ms: 0,
  };
  return {
    thought: `look at f${index}`,
    action: { tool: 'Read', input: { path: `f${index}.py` }, envelope: successEnvelope(data, text) },
    recordedCall: `bash {"command":"cat f${index}.py"}`,
  };
}

function task(name: string, steps: number, chars: number): ReplayTask {
  return {
    name,
    task: `task ${name}`,
    steps: [
      ...Array.from({ length: steps }, (_, index) => readStep(chars, index)),
      { thought: 'done', answer: 'submit' },
    ],
  };
}

describe('stand-in summary', () => {
  it('has the A5 heading and exactly the documented size', () => {
    const text = standInSummary(12, 'mca');
    expect(text.startsWith('## 📌 Archived Session Summary')).toBe(true);
    expect(text).toHaveLength(STAND_IN_SUMMARY_TOKENS * 3);
  });
});

describe('baselines', () => {
  it('naive keeps everything and counts overflows', async () => {
    const metrics = await replay(
      [[task('a', 10, 3_000)]],
      () => new ChatBaseline('naive', { contextWindow: 5_000, systemText: SYSTEM }),
      5_000,
    );
    expect(metrics.calls).toBe(11);
    expect(metrics.compactions).toBe(0);
    expect(metrics.overflows).toBeGreaterThan(0);
    expect(metrics.peakRequest).toBeGreaterThan(10_000);
  });

  it('full-then-compact replaces everything by one summary at window − 13,000', async () => {
    const window = FULL_THEN_COMPACT_HEADROOM + 6_000;
    const strategy = new ChatBaseline('full-then-compact', { contextWindow: window, systemText: SYSTEM });
    const metrics = await replay([[task('a', 20, 3_000)]], () => strategy, window);
    expect(metrics.compactions).toBeGreaterThan(0);
    expect(metrics.overflows).toBe(0);
    expect(metrics.peakRequest).toBeLessThanOrEqual(window - FULL_THEN_COMPACT_HEADROOM + 1_100);
  });

  it('caches the growing conversation: later calls mostly read', async () => {
    const metrics = await replay(
      [[task('a', 10, 3_000)]],
      () => new ChatBaseline('naive', { contextWindow: 200_000, systemText: SYSTEM }),
      200_000,
    );
    expect(metrics.cacheRead).toBeGreaterThan(metrics.cacheWritten);
  });
});

describe('mca strategy', () => {
  it('renders the reply in the ReAct form', () => {
    expect(mcaReply(readStep(10, 1))).toBe('Thought: look at f1\nAction: Read[{"path":"f1.py"}]');
    expect(mcaReply({ thought: '', answer: 'submit' })).toBe('Thought: (no recorded thought)\nAction: Finish[submit]');
  });

  it('segments join to exactly the rendered prompt', () => {
    const builder = new ContextBuilder({ systemPrompt: SYSTEM });
    const built = builder.build({
      history: [],
      scratchpad: [{ assistant: 'Thought: a', observation: 'o' }],
      question: 'q',
    });
    expect(
      segmentsOf(built)
        .map((segment) => segment.text)
        .join(''),
    ).toBe(built.render());
    expect(segmentsOf(built).filter((segment) => segment.cacheBreakpoint)).toHaveLength(2);
  });

  it('compacts on long days, keeps requests inside the window when rounds are small', async () => {
    const days = toDays(
      Array.from({ length: 20 }, (_, index) => task(`t${index}`, 4, 1_500)),
      20,
    );
    const window = 12_000;
    const metrics = await replay(days, () => new McaStrategy({ contextWindow: window, systemText: SYSTEM }), window);
    expect(metrics.calls).toBe(100);
    expect(metrics.compactions).toBeGreaterThan(0);
    expect(metrics.overflows).toBe(0);
  });

  it('is cheaper than naive on a long day', async () => {
    const days = [Array.from({ length: 15 }, (_, index) => task(`t${index}`, 6, 6_000))];
    const options = { contextWindow: 64_000, systemText: SYSTEM };
    const naive = await replay(days, () => new ChatBaseline('naive', options), 64_000);
    const mca = await replay(days, () => new McaStrategy(options), 64_000);
    expect(mca.inputTokens).toBeLessThan(naive.inputTokens);
    expect(mca.peakRequest).toBeLessThan(naive.peakRequest);
  });
});
