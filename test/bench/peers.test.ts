import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatStrategy } from '../../bench/replay/chat-strategy.js';
import {
  CLAUDE_CODE_SUMMARY_SYSTEM,
  ClaudeCodeStrategy,
  claudeCodeThreshold,
  restoredFiles,
} from '../../bench/replay/peers/claude-code.js';
import { CodexStrategy, recentUserMessages } from '../../bench/replay/peers/codex.js';
import {
  GEMINI_ACK,
  GeminiCliStrategy,
  maskToolOutputs,
  splitPoint,
  truncateToolOutput,
} from '../../bench/replay/peers/gemini-cli.js';
import {
  OPENCODE_CONTINUE,
  OPENCODE_PRUNED_TEXT,
  OpencodeStrategy,
  opencodeTailBudget,
  opencodeUsable,
  prune,
  tailStart,
} from '../../bench/replay/peers/opencode.js';
import type { ReplayTask, StrategyEvent } from '../../bench/replay/strategy.js';
import { toInteractive } from '../../bench/replay/workloads.js';
import { bashStep, options, readingTask, SYSTEM } from './replay-fixtures.js';

interface CallSeen {
  request: string;
  tokens: number;
  events: StrategyEvent[];
}

/** Drives a strategy through a task the way the driver does and returns what each model call saw. */
async function drive(strategy: ChatStrategy, task: ReplayTask): Promise<CallSeen[]> {
  const seen: CallSeen[] = [];
  for (const turn of task.turns) {
    const before = await strategy.startTurn(turn.text);
    for (const step of turn.steps) {
      const { call, events } = await strategy.nextCall();
      seen.push({
        request: call.segments.map((segment) => segment.text).join('\n'),
        tokens: call.tokens,
        events: seen.length === 0 ? [...before, ...events] : events,
      });
      strategy.record(step, call);
    }
    strategy.endTurn();
  }
  return seen;
}

const summaries = (call: CallSeen) => call.events.filter((event) => event.kind === 'summary');
const firstCompaction = (calls: CallSeen[]) => calls.findIndex((call) => summaries(call).length > 0);
const chars = (tokens: number) => 'x'.repeat(tokens * 3);

describe('claude-code', () => {
  it('compacts at window − min(output limit, 20,000) − 13,000', () => {
    expect(claudeCodeThreshold(200_000, 32_000)).toBe(167_000);
    expect(claudeCodeThreshold(64_000, 8_192)).toBe(42_808);
  });

  it('compacts before the call whose request reaches the threshold; the summary and 5 newest files survive', async () => {
    const window = 40_000; // threshold 40,000 − 8,192 − 13,000 = 18,808
    const calls = await drive(new ClaudeCodeStrategy(options(window)), readingTask('a', 30, 3_000));
    const at = firstCompaction(calls);
    expect(at).toBeGreaterThan(0);
    expect(calls[at - 1]?.tokens).toBeLessThan(18_808);
    const [summary] = summaries(calls[at]!);
    // The summary request: its own system prompt, then the whole conversation, the task included.
    expect(summary?.kind === 'summary' && summary.segments[0]?.text).toBe(CLAUDE_CODE_SUMMARY_SYSTEM);
    const summaryText = summary?.kind === 'summary' ? summary.segments.map((segment) => segment.text).join('') : '';
    expect(summaryText).toContain('Task a: fix the bug');
    expect(summaryText).toContain('a/f0.py');
    // After it: the summary and the newest views of the 5 most recently read files; the task text is gone.
    const after = calls[at]!.request;
    expect(after).toContain('## 📌 Archived Session Summary');
    for (let index = at - 5; index < at; index += 1) expect(after).toContain(`a/f${index}.py`);
    expect(after).not.toContain(`a/f${at - 6}.py`);
    expect(after).not.toContain('Task a: fix the bug');
    expect(calls[at]!.tokens).toBeLessThan(calls[at - 1]!.tokens);
  });

  it('restores at most 5 files, each cut to 5,000 tokens, newest view of each path', () => {
    const read = (path: string, text: string): ChatMessage => ({ role: 'tool', text, tool: 'Read', readPath: path });
    const messages = [
      read('old.py', 'old view'),
      ...['a', 'b', 'c', 'd', 'e'].map((name) => read(`${name}.py`, `${name} ${chars(6_000)}`)),
      read('old.py', 'new view'),
    ];
    const restored = restoredFiles(messages);
    expect(restored.map((message) => message.readPath)).toEqual(['b.py', 'c.py', 'd.py', 'e.py', 'old.py']);
    expect(restored[4]?.text).toBe('new view');
    expect(restored[0]?.text).toHaveLength(15_000);
  });
});

describe('codex', () => {
  it('compacts once the last response reached 90% of the window; user messages and the summary survive', async () => {
    const window = 20_000; // limit 18,000
    const task = toInteractive(readingTask('a', 20, 3_000), 4);
    const calls = await drive(new CodexStrategy(options(window)), task);
    const at = firstCompaction(calls);
    expect(at).toBeGreaterThan(0);
    expect(calls[at - 1]!.tokens).toBeGreaterThanOrEqual(18_000 - 100);
    const after = calls[at]!.request;
    expect(after).toContain('Task a: fix the bug');
    expect(after).toContain('go on');
    expect(after).toContain('## 📌 Archived Session Summary');
    expect(after).not.toContain('a/f0.py\n');
    // The summary request is the whole history plus the prompt, with the session's system block first.
    const [summary] = summaries(calls[at]!);
    expect(summary?.kind === 'summary' && summary.segments[0]?.text).toBe(SYSTEM);
  });

  it('keeps user messages newest first up to the budget, cutting the one that does not fit', () => {
    const user = (text: string): ChatMessage => ({ role: 'user', text });
    const messages: ChatMessage[] = [
      user(chars(10)),
      { role: 'tool', text: chars(50) },
      { role: 'summary', text: 'old summary' },
      user(`second ${chars(10)}`),
      user(`third ${chars(10)}`),
    ];
    const kept = recentUserMessages(messages, 25);
    expect(kept).toHaveLength(3);
    expect(kept[0]?.text).toMatch(/^x+…tokens truncated…$/);
    expect(kept[1]?.text.startsWith('second')).toBe(true);
    expect(kept[2]?.text.startsWith('third')).toBe(true);
  });
});

describe('opencode', () => {
  it('compacts at window − output − min(20,000, output) and keeps a tail of 25% of that, within 2,000–15,000', () => {
    expect(opencodeUsable(200_000, 32_000)).toBe(148_000);
    expect(opencodeUsable(64_000, 8_192)).toBe(47_616);
    expect(opencodeTailBudget(148_000)).toBe(15_000);
    expect(opencodeTailBudget(47_616)).toBe(11_904);
    expect(opencodeTailBudget(4_000)).toBe(2_000);
  });

  it('keeps the newest whole turns that fit, then the newest part of the next turn that fits', () => {
    const turn = (name: string, tokens: number): ChatMessage[] => [
      { role: 'user', text: name },
      { role: 'assistant', text: chars(tokens) },
      { role: 'tool', text: chars(tokens) },
    ];
    const messages = [...turn('one', 1_000), ...turn('two', 300), ...turn('three', 200)];
    expect(tailStart(messages, 1_100)).toBe(3); // turns two and three whole; no part of turn one fits
    expect(tailStart(messages, 2_100)).toBe(2); // and the newest message of turn one
    expect(tailStart(messages, 500)).toBe(6); // turn three only
    expect(tailStart(messages, 10_000)).toBe(messages.length); // everything fits: no tail, all summarised
  });

  it('after a compaction sends the summary, the tail and the continue message; the summary request serialises', async () => {
    const window = 30_000; // usable 30,000 − 8,192 − 8,192 = 13,616, tail budget 3,404
    const calls = await drive(new OpencodeStrategy(options(window)), readingTask('a', 20, 6_000));
    const at = firstCompaction(calls);
    expect(at).toBeGreaterThan(0);
    const after = calls[at]!.request;
    expect(after).toContain('## 📌 Archived Session Summary');
    expect(after.trimEnd().endsWith(OPENCODE_CONTINUE)).toBe(true);
    expect(after).toContain(`a/f${at - 1}.py`);
    expect(after).not.toContain('a/f0.py');
    const [summary] = summaries(calls[at]!);
    const prompt = summary?.kind === 'summary' ? (summary.segments[0]?.text ?? '') : '';
    expect(summary?.kind === 'summary' && summary.segments).toHaveLength(1);
    expect(prompt).toContain('[User]: Task a: fix the bug');
    expect(prompt).toContain('[Tool result]: a/f0.py');
    expect(prompt).toContain('\n[truncated]');
  });

  it('prunes tool outputs older than the two newest turns beyond 40,000 tokens, only when it frees > 20,000', () => {
    const turnOf = (tokens: number): ChatMessage[] => [
      { role: 'user', text: 'u' },
      { role: 'assistant', text: 'a' },
      { role: 'tool', text: chars(tokens) },
    ];
    const big = [...turnOf(30_000), ...turnOf(15_000), ...turnOf(30_000), ...turnOf(1_000), ...turnOf(1_000)];
    // Turn 3's 30,000 stay protected; turn 2's output crosses 40,000 and goes with turn 1's (45,000 freed).
    expect(prune(big)).toBe(2);
    expect(big[2]?.text).toBe(OPENCODE_PRUNED_TEXT);
    expect(big[5]?.text).toBe(OPENCODE_PRUNED_TEXT);
    expect(big[8]?.text).not.toBe(OPENCODE_PRUNED_TEXT);
    expect(big[14]?.text).not.toBe(OPENCODE_PRUNED_TEXT);
    // Only 15,000 would be freed: nothing is pruned.
    const small = [...turnOf(10_000), ...turnOf(5_000), ...turnOf(38_000), ...turnOf(1_000), ...turnOf(1_000)];
    expect(prune(small)).toBe(0);
    expect(small[2]?.text).not.toBe(OPENCODE_PRUNED_TEXT);
  });

  it('prunes only when asked to (off by default, as in opencode)', async () => {
    const task = toInteractive(readingTask('a', 40, 9_000), 2);
    const off = await drive(new OpencodeStrategy(options(1_000_000)), task);
    const on = await drive(new OpencodeStrategy(options(1_000_000), { prune: true }), task);
    const degraded = (calls: CallSeen[]) =>
      calls.flatMap((call) => call.events).filter((e) => e.kind === 'degradation');
    expect(degraded(off)).toHaveLength(0);
    expect(degraded(on).length).toBeGreaterThan(0);
    expect(on.at(-1)!.request).toContain(OPENCODE_PRUNED_TEXT);
  });
});

describe('gemini-cli', () => {
  it('cannot compress inside one task: the only split point is the task itself', async () => {
    const calls = await drive(new GeminiCliStrategy(options(20_000)), readingTask('a', 20, 3_000));
    expect(calls.flatMap(summaries)).toHaveLength(0);
  });

  it('with user turns: two summary calls, then snapshot, "Got it" and the newest 30% from a user message', async () => {
    const task = toInteractive(readingTask('a', 20, 3_000), 3);
    const calls = await drive(new GeminiCliStrategy(options(20_000)), task);
    const at = firstCompaction(calls);
    expect(at).toBeGreaterThan(0);
    expect(calls[at - 1]!.tokens).toBeGreaterThanOrEqual(10_000);
    expect(summaries(calls[at]!)).toHaveLength(2);
    const after = calls[at]!.request;
    expect(after).toContain('## 📌 Archived Session Summary');
    expect(after).toContain(GEMINI_ACK);
    expect(after).not.toContain('Task a: fix the bug');
    // The pending request (here the newest tool output) is not summarised: it follows what is kept.
    expect(after.endsWith(`a/f${at - 1}.py\n`.padEnd(3_000, 'x'))).toBe(true);
  });

  it('stops summarising after a compression that does not shrink the prompt, and then only truncates', async () => {
    const long = readingTask('b', 40, 1_500);
    const task: ReplayTask = {
      name: 'a',
      task: 'first',
      turns: [readingTask('a', 3, 3_000).turns[0]!, { text: 'go on', steps: long.turns[0]!.steps }],
    };
    const calls = await drive(new GeminiCliStrategy(options(20_000)), task);
    const kinds = calls.map((call) => call.events.map((event) => event.kind).join(','));
    const inflated = kinds.findIndex((events) => events === 'summary,summary');
    expect(kinds.indexOf('summary,summary,compaction')).toBeGreaterThanOrEqual(0);
    expect(inflated).toBeGreaterThan(kinds.indexOf('summary,summary,compaction'));
    // From then on no summary call is made again, and the requests grow past the window.
    expect(kinds.slice(inflated + 1).some((events) => events.includes('summary'))).toBe(false);
    expect(calls.at(-1)!.tokens).toBeGreaterThan(20_000);
  });

  it('splits at the first typed user message after 70% of the characters', () => {
    const messages: ChatMessage[] = [
      { role: 'user', text: chars(10) },
      { role: 'tool', text: chars(100) },
      { role: 'user', text: chars(10) },
      { role: 'tool', text: chars(100) },
      { role: 'user', text: chars(10) },
      { role: 'tool', text: chars(30) },
    ];
    expect(splitPoint(messages)).toBe(4);
    expect(splitPoint(messages.slice(0, 2))).toBe(0);
    // A history that ends with a final answer (no tool call) can be compressed whole; one that ends with a call not.
    const answered: ChatMessage[] = [...messages.slice(0, 2), { role: 'assistant', text: 'done', callsTool: false }];
    expect(splitPoint(answered)).toBe(3);
    expect(splitPoint([...messages.slice(0, 2), { role: 'assistant', text: 'run', callsTool: true }])).toBe(0);
  });

  it('cuts a long tool output to its first 8,000 and last 32,000 characters', () => {
    const text = `HEAD${'m'.repeat(100_000)}TAIL`;
    const cut = truncateToolOutput(text);
    expect(cut).toContain(`\nHEAD${'m'.repeat(7_996)}\n`);
    expect(cut.endsWith(`${'m'.repeat(31_996)}TAIL`)).toBe(true);
    expect(cut).toContain('[60008 characters omitted]');
    expect(truncateToolOutput('short')).toBe('short');
  });

  it('masks tool outputs behind the newest 50,000 tokens once 30,000 tokens can be masked', () => {
    const tool = (tokens: number): ChatMessage => ({ role: 'tool', text: chars(tokens), tool: 'Bash' });
    const messages = [tool(20_000), tool(15_000), tool(40_000), tool(20_000), { role: 'user', text: 'go on' } as const];
    // The newest 20,000 stay; the output that crosses 50,000 and every older one are masked.
    expect(maskToolOutputs(messages)).toBe(3);
    for (const index of [0, 1, 2]) expect(messages[index]?.text).toContain('<tool_output_masked>');
    expect(messages[3]?.text).toHaveLength(60_000);
    // Only 20,000 tokens could be masked: nothing is.
    const fewer = [tool(10_000), tool(10_000), tool(45_000), { role: 'user', text: 'go on' } as const];
    expect(maskToolOutputs(fewer)).toBe(0);
  });

  it('masks during a long single task before any compression', async () => {
    const calls = await drive(new GeminiCliStrategy(options(1_000_000)), {
      name: 'b',
      task: 't',
      turns: [{ text: 't', steps: Array.from({ length: 12 }, () => bashStep('make', 30_000)) }],
    });
    expect(calls.flatMap((call) => call.events).some((event) => event.kind === 'degradation')).toBe(true);
    expect(calls.at(-1)!.request).toContain('<tool_output_masked>');
  });
});
