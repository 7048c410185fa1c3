/**
 * Issue 42, long sessions: once one turn alone is over the compaction threshold, compacting the history cannot help
 * (the in-turn ladder shrinks the turn's own steps). Before, every later step still ran a compaction that changed
 * nothing but rewrote the whole session file (a snapshot per step, each as long as the history): the step's time grew
 * with the turn. Now such a turn writes no snapshot, and its requests still shrink its older steps.
 */
import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';

const SIGNAL = new AbortController().signal;

const noSummary: Summarizer = {
  summarize: async () => ({ ok: false as const, reason: 'failed' as const, detail: 'not expected' }),
};

async function drain<R>(run: AsyncGenerator<ContextEvent | { type: 'turn_opened'; round: number }, R>): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) if (next.done) return next.value;
}

describe('a turn larger than the threshold', () => {
  it('writes no session snapshot per step, and its requests stay within the window', async () => {
    const history = new HistoryManager({ minRetainRounds: 10 });
    let snapshots = 0;
    history.onSnapshot(() => (snapshots += 1));
    const engine = new ContextEngine({
      history,
      builder: new ContextBuilder({ systemPrompt: 'You are a test agent.' }),
      summarizer: noSummary,
      contextWindow: 20_000,
      compressionThreshold: 0.5,
      maxOutputTokens: 1_000,
      toolMemory: new InMemoryToolMemory(),
    });
    await drain(engine.beginTurn('read all the files', SIGNAL));
    const sizes: number[] = [];
    for (let step = 1; step <= 60; step += 1) {
      const prepared: PreparedStep = await drain(engine.prepareStep(SIGNAL));
      expect(prepared.kind).toBe('ready');
      if (prepared.kind === 'ready') sizes.push(prepared.context.totalTokens);
      const action = { tool: 'Read', input: { path: `f${step}.txt` } };
      const text = `Thought: next\nAction: Read[${JSON.stringify(action.input)}]`;
      // The usage a real API reports: the prompt just sent, so the trigger sees the turn pass the threshold.
      engine.recordReply({ step, text, usage: { ...ZERO_USAGE, inputTokens: sizes.at(-1) ?? 0 }, action });
      const content = Array.from({ length: 80 }, (_, at) => `${at + 1}\tfile ${step} line ${at + 1} ${'-'.repeat(40)}`);
      const body = content.join('\n');
      engine.recordObservation({
        step,
        assistantText: text,
        action,
        envelope: successEnvelope(
          { path: action.input.path, start_line: 1, end_line: 80, total_lines: 80, content: body },
          body,
        ),
      });
    }
    // 60 steps of 5,000 characters are far over the 10,000-token threshold; the ladder kept the requests in the window.
    expect(Math.max(...sizes)).toBeLessThan(20_000 - 1_024);
    expect(sizes.at(-1)).toBeLessThan(sizes.length * 1_600);
    expect(snapshots).toBe(0);
  });
});
