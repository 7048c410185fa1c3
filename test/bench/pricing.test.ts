import { describe, expect, it } from 'vitest';
import { replay } from '../../bench/replay/driver.js';
import { CLAUDE_CODE_SUMMARY_SYSTEM, ClaudeCodeStrategy } from '../../bench/replay/peers/claude-code.js';
import { CodexStrategy } from '../../bench/replay/peers/codex.js';
import { callDollars, PRICED_MODEL, replayPrice } from '../../bench/replay/pricing.js';
import type { Segment } from '../../bench/replay/prefix-cache.js';
import type { ReplayTask, Strategy, StrategyEvent } from '../../bench/replay/strategy.js';
import { finalStep, options, readingTask } from './replay-fixtures.js';

const million = 1_000_000;

describe('prices', () => {
  it('uses a current Claude Sonnet: $3 in, $15 out, cache write 1.25×, read 0.1×', () => {
    expect(PRICED_MODEL).toMatch(/sonnet/);
    const price = replayPrice();
    expect([price.input, price.output]).toEqual([3, 15]);
    expect(price.cacheWrite).toBeCloseTo(3.75, 12);
    expect(price.cacheRead).toBeCloseTo(0.3, 12);
  });

  it('prices uncached, written and read input and the output of a call', () => {
    const account = { tokens: 3 * million, read: million, written: million, uncached: million, weighted: 0 };
    expect(callDollars(account, million)).toBeCloseTo(0.3 + 3.75 + 3 + 15, 10);
    expect(callDollars({ ...account, read: 0, written: 0, uncached: 0, tokens: 0 }, 2_000)).toBeCloseTo(0.03, 10);
  });
});

/** A hand-made strategy: every call sends `request`; before the second call it makes one summary call. */
function scripted(request: Segment[], summary: Segment[], replyTokens: number): Strategy {
  let calls = 0;
  return {
    name: 'naive',
    startTurn: async () => [],
    nextCall: async () => {
      calls += 1;
      const events: StrategyEvent[] =
        calls === 2 ? [{ kind: 'summary', segments: summary, outputTokens: 1_500 }, { kind: 'compaction' }] : [];
      return { call: { segments: request, tokens: 0 }, events };
    },
    record: () => replyTokens,
    endTurn: () => undefined,
  };
}

describe('the driver prices every call', () => {
  const oneTask = (steps: number): ReplayTask => ({
    name: 't',
    task: 'fix it',
    turns: [{ text: 'fix it', steps: Array.from({ length: steps }, () => finalStep()) }],
  });

  it('summary calls go through the same cache as model calls and are priced with their output', async () => {
    const system = { text: 's'.repeat(3_000), cacheBreakpoint: true };
    const request = [system, { text: 'm'.repeat(3_000), cacheBreakpoint: true }];
    // The summary request shares the system block with the model calls, then 3,000 new characters.
    const summary = [system, { text: 'q'.repeat(3_000), cacheBreakpoint: true }];
    const metrics = await replay([[oneTask(3)]], () => scripted(request, summary, 100), 10_000);
    // Call 1 writes 2,000 tokens; calls 2 and 3 read them.
    expect(metrics.model).toMatchObject({ calls: 3, cacheWritten: 2_000, cacheRead: 4_000, outputTokens: 300 });
    expect(metrics.model.dollars).toBeCloseTo((2_000 * 3.75 + 4_000 * 0.3 + 300 * 15) / million, 12);
    // The summary call reads the shared 1,000-token system block and writes its own 1,000 tokens.
    expect(metrics.summary).toMatchObject({ calls: 1, cacheRead: 1_000, cacheWritten: 1_000, outputTokens: 1_500 });
    expect(metrics.summary.dollars).toBeCloseTo((1_000 * 0.3 + 1_000 * 3.75 + 1_500 * 15) / million, 12);
    expect(metrics.compactions).toBe(1);
  });

  it("a peer's summary request reuses the session's cache only when it starts like the session's requests", async () => {
    const day = [readingTask('a', 70, 3_000)];
    // 60k: the summary request (history + prompt) fits the window, so codex sends the history untrimmed.
    const codex = await replay([day], () => new CodexStrategy(options(60_000)), 60_000);
    const claude = await replay([day], () => new ClaudeCodeStrategy(options(40_000)), 40_000);
    expect(codex.summary.calls).toBeGreaterThan(0);
    expect(claude.summary.calls).toBeGreaterThan(0);
    // codex sends the history as it is plus its prompt: most of it is read from the cache.
    expect(codex.summary.cacheRead).toBeGreaterThan(codex.summary.cacheWritten);
    // Claude Code's summary request starts with its own system prompt: nothing of the session is read, only that
    // system prompt from the second summary call on.
    const summarySystem = Math.floor(CLAUDE_CODE_SUMMARY_SYSTEM.length / 3);
    expect(claude.summary.cacheRead).toBe((claude.summary.calls - 1) * summarySystem);
    expect(claude.summary.outputTokens).toBe(claude.summary.calls * 1_500);
  });
});
