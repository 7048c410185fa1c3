/** The ContextEngine's surface: trigger, compaction, the window check, recording, the per-turn state. */
import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, MIN_OUTPUT_TOKENS, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent, TurnOpenedEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Message } from '../../src/context/message.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE, type Usage } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { closedRound, finish, user } from './history-fixtures.js';

const SIGNAL = new AbortController().signal;
const SUMMARY_TEXT = '## 📌 Archived Session Summary\nearlier rounds';

class FakeSummarizer implements Summarizer {
  readonly archives: Message[][] = [];
  async summarize(messages: readonly Message[]) {
    this.archives.push([...messages]);
    return { ok: true as const, text: SUMMARY_TEXT, usage: { ...ZERO_USAGE } };
  }
}

function usage(total: number): Usage {
  return { ...ZERO_USAGE, inputTokens: total };
}

function engineWith(
  initial: Message[],
  options: { window?: number; system?: string; minRetainRounds?: number } = {},
): { engine: ContextEngine; history: HistoryManager; summarizer: FakeSummarizer } {
  const history = new HistoryManager({ minRetainRounds: options.minRetainRounds ?? 1 }, initial);
  const summarizer = new FakeSummarizer();
  const engine = new ContextEngine({
    history,
    builder: new ContextBuilder({ systemPrompt: options.system ?? 'You are a test agent.' }),
    summarizer,
    contextWindow: options.window ?? 10_000,
    compressionThreshold: 0.8,
    maxOutputTokens: 2_000,
  });
  return { engine, history, summarizer };
}

async function collect<R>(run: AsyncGenerator<ContextEvent | TurnOpenedEvent, R>) {
  const events: Array<ContextEvent | TurnOpenedEvent> = [];
  for (let next = await run.next(); ; next = await run.next()) {
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

/** Two closed rounds whose last call used `lastUsage` tokens. */
function twoRounds(lastUsage: number): Message[] {
  return [...closedRound(1), user(2), finish(2, 1, 'finish', usage(lastUsage))];
}

describe('ContextEngine: the trigger', () => {
  it('compacts before a turn exactly when the last usage plus the input reaches threshold × window', async () => {
    // 0.8 × 10,000 = 8,000; the input adds floor(len / 3) tokens.
    const below = engineWith(twoRounds(7_990));
    const quiet = await collect(below.engine.beginTurn('x'.repeat(29), SIGNAL));
    expect(quiet.events.map((event) => event.type)).toEqual(['turn_opened']);

    const at = engineWith(twoRounds(7_990));
    const fired = await collect(at.engine.beginTurn('x'.repeat(30), SIGNAL));
    expect(fired.events.map((event) => event.type)).toEqual(['turn_opened', 'compaction_start', 'compaction_end']);
  });

  it('appends the user message before it compacts, so the input is in history at turn_opened', async () => {
    const { engine, history } = engineWith(twoRounds(9_000));
    const run = engine.beginTurn('the new task', SIGNAL);
    const first = await run.next();
    expect(first.value).toEqual({ type: 'turn_opened', round: 3 });
    expect(history.messages.at(-1)).toMatchObject({ role: 'user', content: 'the new task' });
    expect(history.messages.some((message) => message.role === 'summary')).toBe(false);
    await collect(run);
    expect(history.messages.some((message) => message.role === 'summary')).toBe(true);
  });

  it('never compacts under three messages', async () => {
    // A first turn whose input alone passes the threshold: one message, nothing to compact.
    const { engine } = engineWith([]);
    const { events } = await collect(engine.beginTurn('x'.repeat(30_000), SIGNAL));
    expect(events.map((event) => event.type)).toEqual(['turn_opened']);
  });

  it('runs the step trigger with the newest observation only', async () => {
    const { engine } = engineWith(twoRounds(100));
    await collect(engine.beginTurn('task', SIGNAL));
    await collect(engine.prepareStep(SIGNAL));
    const action = { tool: 'Read', input: { path: 'a.ts' } };
    engine.recordReply({ step: 1, text: 'Thought: t\nAction: Read[{"path":"a.ts"}]', usage: usage(7_000), action });
    const big = 'y'.repeat(3_100); // 7,000 + 1,033 ≥ 8,000
    engine.recordObservation({
      step: 1,
      assistantText: 'Thought: t\nAction: Read[{"path":"a.ts"}]',
      action,
      envelope: successEnvelope({ path: 'a.ts' }, big),
    });
    const { events } = await collect(engine.prepareStep(SIGNAL));
    expect(events[0]).toMatchObject({ type: 'compaction_start', reason: 'threshold' });
  });
});

describe('ContextEngine: compaction', () => {
  it('archives the oldest closed rounds through the summarizer and keeps the open round', async () => {
    const { engine, history, summarizer } = engineWith(twoRounds(9_000));
    const { events } = await collect(engine.beginTurn('task three', SIGNAL));
    const end = events.find((event) => event.type === 'compaction_end');
    expect(end).toMatchObject({ outcome: 'summary', roundsArchived: 1, roundsKept: 1 });
    expect(summarizer.archives[0]?.map((message) => message.metadata.round)).toEqual([1, 1, 1, 1]);
    expect(history.messages.map((message) => message.role)).toEqual(['summary', 'user', 'assistant', 'user']);
    // The next request carries the summary in L3 and the task as the current input.
    const prepared = await collect(engine.prepareStep(SIGNAL));
    expect(prepared.result.kind).toBe('ready');
    expect(prepared.result.context.render()).toContain(`[system] ${SUMMARY_TEXT}`);
    expect(prepared.result.context.render()).toContain('# Request\n\ntask three');
  });

  it('/compact archives with the focus and reports manual compaction', async () => {
    const { engine, summarizer } = engineWith(twoRounds(100));
    const events: ContextEvent[] = [];
    for await (const event of engine.compact({ focus: 'auth', signal: SIGNAL })) events.push(event);
    expect(events[0]).toMatchObject({ type: 'compaction_start', reason: 'manual', roundsToArchive: 1 });
    expect(summarizer.archives).toHaveLength(1);
  });
});

describe('ContextEngine: the window check', () => {
  it('refuses a request that cannot leave room for a reply, after one emergency compaction, and sends nothing', async () => {
    const window = 10_000;
    const system = 's'.repeat((window - MIN_OUTPUT_TOKENS) * 3 + 3);
    const { engine } = engineWith([], { window, system });
    await collect(engine.beginTurn('task', SIGNAL));
    const { events, result } = await collect(engine.prepareStep(SIGNAL));
    expect(events.filter((event) => event.type === 'compaction_start')).toEqual([
      expect.objectContaining({ reason: 'emergency' }),
    ]);
    expect(result).toMatchObject({ kind: 'too_large', code: 'CONTEXT_TOO_LARGE' });
    expect((result as Extract<PreparedStep, { kind: 'too_large' }>).message).toMatch(/nothing was sent/);
  });

  it('lowers max_tokens to what the window leaves', async () => {
    const window = 10_000;
    const { engine } = engineWith([], { window, system: 's'.repeat(8_500 * 3) });
    await collect(engine.beginTurn('task', SIGNAL));
    const { result } = await collect(engine.prepareStep(SIGNAL));
    expect(result.kind).toBe('ready');
    if (result.kind === 'ready') {
      expect(result.maxTokens).toBe(window - result.context.totalTokens);
      expect(result.maxTokens).toBeLessThan(2_000);
    }
  });

  it('grants one emergency compaction per turn after the API refused a request as too long', async () => {
    const { engine } = engineWith(twoRounds(100));
    await collect(engine.beginTurn('task', SIGNAL));
    const first = await collect(engine.recoverFromOverflow(SIGNAL));
    expect(first.result).toBe(true);
    expect(first.events[0]).toMatchObject({ type: 'compaction_start', reason: 'emergency' });
    expect((await collect(engine.recoverFromOverflow(SIGNAL))).result).toBe(false);
    engine.closeTurn('error', 'gave up');
    await collect(engine.beginTurn('next task', SIGNAL));
    expect((await collect(engine.recoverFromOverflow(SIGNAL))).result).toBe(true);
  });
});

describe('ContextEngine: recording a step', () => {
  it('keeps the full observation in this turn and only the compressed one in history', async () => {
    const { engine, history } = engineWith([]);
    await collect(engine.beginTurn('read it', SIGNAL));
    const action = { tool: 'Bash', input: { command: 'make' } };
    const text = 'Thought: build\nAction: Bash[{"command":"make"}]';
    engine.recordReply({ step: 1, text, usage: usage(10), action });
    const stdout = Array.from({ length: 60 }, (_, index) => `line ${index}`).join('\n');
    const compressed = engine.recordObservation({
      step: 1,
      assistantText: text,
      action,
      envelope: successEnvelope({ command: 'make', exit_code: 0, stdout, stderr: '' }, stdout),
    });
    expect(history.messages.at(-1)).toMatchObject({ role: 'tool', content: compressed });
    expect(compressed).not.toContain('line 59');
    const { result } = await collect(engine.prepareStep(SIGNAL));
    expect(result.context.render()).toContain(`${text}\nObservation: ${stdout}`);
  });

  it('closes the round with the note, or not at all when the reply already closed it', async () => {
    const { engine, history } = engineWith([]);
    await collect(engine.beginTurn('one', SIGNAL));
    engine.recordReply({ step: 1, text: 'Thought: t\nAction: Finish[ok]', usage: usage(10), roundEnd: 'finish' });
    engine.closeTurn('finish', 'ok');
    expect(history.messages).toHaveLength(2);
    await collect(engine.beginTurn('two', SIGNAL));
    engine.closeTurn('interrupted', 'Interrupted by user.');
    expect(history.messages.at(-1)).toMatchObject({
      content: '[interrupted] Interrupted by user.',
      metadata: { round: 2, step: 1, roundEnd: 'interrupted' },
    });
    await collect(engine.beginTurn('three', SIGNAL));
    engine.closeTurn('answer');
    expect(history.messages.at(-1)).toMatchObject({ content: '(The turn ended.)', metadata: { roundEnd: 'answer' } });
  });

  it('closes a round a crash left open when it is built', () => {
    const { history } = engineWith([user(1)]);
    expect(history.openRound()).toBeUndefined();
    expect(history.messages.at(-1)).toMatchObject({ metadata: { roundEnd: 'interrupted' } });
  });
});
