import { describe, expect, it } from 'vitest';
import { replay } from '../../bench/replay/driver.js';
import { EventTranslator, segmentsOf } from '../../bench/replay/mca/engine-adapter.js';
import { McaStrategy, mcaReply } from '../../bench/replay/mca-strategy.js';
import { NaiveStrategy } from '../../bench/replay/peers/naive.js';
import { STAND_IN_SUMMARY_TOKENS, standInSummary } from '../../bench/replay/strategy.js';
import { toDays, toInteractive } from '../../bench/replay/workloads.js';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { SUMMARY_CLOSING, SUMMARY_SYSTEM } from '../../src/context/summary-request.js';
import { SYSTEM, finalStep, observed, options, readStep, readingTask } from './replay-fixtures.js';

describe('stand-in summary', () => {
  it('has the A5 heading and exactly the documented size', () => {
    const text = standInSummary(12, 'mca');
    expect(text.startsWith('## 📌 Archived Session Summary')).toBe(true);
    expect(text).toHaveLength(STAND_IN_SUMMARY_TOKENS * 3);
  });
});

describe('naive', () => {
  it('keeps everything, counts every request over the window as an overflow and never compacts', async () => {
    const metrics = await replay([[readingTask('a', 10, 3_000)]], () => new NaiveStrategy(options(5_000)), 5_000);
    expect(metrics.model.calls).toBe(11);
    expect(metrics.compactions).toBe(0);
    expect(metrics.summary.calls).toBe(0);
    // Each step adds ~1,000 tokens to a ~180-token system block: from the 6th call on, requests pass 5,000.
    expect(metrics.overflows).toBe(6);
    expect(metrics.model.peakRequest).toBeGreaterThan(10_000);
    expect(metrics.memory.overall.taskPresent).toBe(11);
  });

  it('caches the growing conversation: later calls mostly read', async () => {
    const metrics = await replay([[readingTask('a', 10, 3_000)]], () => new NaiveStrategy(options(200_000)), 200_000);
    expect(metrics.model.cacheRead).toBeGreaterThan(metrics.model.cacheWritten);
  });
});

describe('mca strategy', () => {
  it('renders the reply in the ReAct form', () => {
    expect(mcaReply(readStep('f1.py', 10))).toBe('Thought: look at f1.py\nAction: Read[{"path":"f1.py"}]');
    expect(mcaReply(finalStep())).toBe('Thought: done\nAction: Finish[submit]');
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

  it("compacts on a long day with priced summary calls carrying mca's real summary request", async () => {
    const day = toDays(
      Array.from({ length: 20 }, (_, index) => readingTask(`t${index}`, 4, 1_500)),
      20,
    );
    const window = 12_000;
    const systems: string[] = [];
    const strategy = observed(new McaStrategy(options(window)), {
      onEvents: (events) => {
        for (const event of events) {
          if (event.kind !== 'summary') continue;
          systems.push(event.segments[0]?.text ?? '');
          expect(event.segments.at(-1)?.text).toContain(SUMMARY_CLOSING);
        }
      },
    });
    const metrics = await replay(day, () => strategy, window);
    expect(metrics.model.calls).toBe(100);
    expect(metrics.compactions).toBeGreaterThan(0);
    expect(metrics.summary.calls).toBeGreaterThan(0);
    expect(metrics.summary.outputTokens).toBe(metrics.summary.calls * STAND_IN_SUMMARY_TOKENS);
    expect(metrics.summary.dollars).toBeGreaterThan(0);
    expect(systems).toHaveLength(metrics.summary.calls);
    // On the cached prefix the system block is the agent's own L1; standalone it is SUMMARY_SYSTEM.
    const l1 = options(window).systemText;
    expect(systems.every((system) => system === SUMMARY_SYSTEM || system === l1)).toBe(true);
    expect(systems.some((system) => system === l1)).toBe(true);
    expect(metrics.overflows).toBe(0);
  });

  it('closes a turn the person ends after a tool step, so the follow-up opens a new round', async () => {
    const task = toInteractive(readingTask('a', 6, 500), 3);
    expect(task.turns.map((turn) => turn.text)).toEqual(['Task a: fix the bug', 'go on', 'now run the tests']);
    const requests: string[] = [];
    const strategy = observed(new McaStrategy(options(200_000)), {
      onRequest: (text) => requests.push(text),
    });
    const metrics = await replay([[task]], () => strategy, 200_000);
    expect(metrics.model.calls).toBe(7);
    // The fourth call answers "go on": the first turn is now a closed round in L3, the task still verbatim.
    expect(requests[3]).toContain('(The turn ended.)');
    expect(requests[3]).toContain('go on');
    expect(requests[3]).toContain('Task a: fix the bug');
  });

  it('is cheaper than naive on a long day and stays inside the window', async () => {
    const day = [Array.from({ length: 15 }, (_, index) => readingTask(`t${index}`, 6, 6_000))];
    const naive = await replay(day, () => new NaiveStrategy(options(64_000)), 64_000);
    const mca = await replay(day, () => new McaStrategy(options(64_000)), 64_000);
    expect(mca.model.inputTokens).toBeLessThan(naive.model.inputTokens);
    expect(mca.model.peakRequest).toBeLessThanOrEqual(64_000);
    expect(naive.overflows).toBeGreaterThan(0);
  });
});

describe('mca-native strategy', () => {
  it('sends the tools definitions in L1, the turn as calls and full results, and compacts like mca', async () => {
    const requests: string[] = [];
    const strategy = observed(new McaStrategy(options(200_000), 'native'), {
      onRequest: (text) => requests.push(text),
    });
    expect(strategy.name).toBe('mca-native');
    const metrics = await replay([[readingTask('a', 3, 600)]], () => strategy, 200_000);
    expect(metrics.model.calls).toBe(4);
    expect(requests[0]).toContain('"inputSchema"');
    expect(requests[0]).not.toContain('Action: Finish[');
    // The second call carries the first call (as JSON, not as an Action line) and its full result.
    expect(requests[1]).toMatch(/\[\{"id":"call_1","name":"Read","input":\{"path":"[^"]+"\}\}\]/);
    const turn = requests[1]!.slice(requests[1]!.lastIndexOf('# Request'));
    expect(turn).not.toContain('Observation:');
    expect(turn).not.toContain('Action: Read[');

    const day = toDays(
      Array.from({ length: 20 }, (_, index) => readingTask(`t${index}`, 4, 1_500)),
      20,
    );
    const native = await replay(day, () => new McaStrategy(options(12_000), 'native'), 12_000);
    expect(native.model.calls).toBe(100);
    expect(native.compactions).toBeGreaterThan(0);
    expect(native.overflows).toBe(0);
  });
});

describe('mca engine events as the driver counts them', () => {
  const start = { type: 'compaction_start', reason: 'threshold', tokensBefore: 0, roundsToArchive: 0 } as const;
  const end = (roundsArchived: number, roundsKept: number, outcome: 'summary' | 'nothing_to_compact') =>
    ({
      type: 'compaction_end',
      reason: 'threshold',
      outcome,
      tokensBefore: 0,
      tokensAfter: 0,
      roundsKept,
      roundsArchived,
    }) as const;
  const level = (value: 1 | 2 | 3) => ({ type: 'degrade', level: value, message: `level ${value}` }) as const;

  it('counts a summary or dropped rounds as a compaction, the ladder and shrinking as degradations', () => {
    const translator = new EventTranslator(() => 6);
    for (const event of [start, level(2), level(3), end(0, 2, 'nothing_to_compact'), level(1)]) translator.add(event);
    for (const event of [start, end(1, 5, 'summary')]) translator.add(event);
    expect(translator.events).toEqual([
      { kind: 'degradation', detail: 'level 2' },
      { kind: 'compaction' },
      { kind: 'degradation', detail: 'level 1' },
      { kind: 'compaction' },
    ]);
  });

  it('counts a level-3 warning that kept every round as nothing', () => {
    const translator = new EventTranslator(() => 4);
    for (const event of [start, level(3), end(0, 4, 'nothing_to_compact')]) translator.add(event);
    expect(translator.events).toEqual([]);
  });
});
