/**
 * Issue 42, long sessions: a step the in-turn ladder has shrunk holds its full result by reference only (tool
 * memory), so a long turn keeps each result's text once (the compressed form in history) instead of also keeping
 * the full text in the scratchpad and the in-process cache. What the model is sent must not change: every request of
 * a long turn, the next turn's (its live round) and one after a compaction are compared, byte for byte, with the
 * same session run with the release switched off.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import { LiveRounds } from '../../src/context/live-rounds.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';

const SIGNAL = new AbortController().signal;

const summary: Summarizer = {
  summarize: async () => ({ ok: true as const, text: 'Read many files.', usage: ZERO_USAGE }),
};

async function drain<R>(run: AsyncGenerator<ContextEvent | { type: 'turn_opened'; round: number }, R>): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) if (next.done) return next.value;
}

/** Every request of a session: one turn of `steps` Reads, a short second turn, then a third after a compaction. */
async function session(native: boolean, usage: boolean): Promise<{ requests: string[]; firstTurnRecalls: number }> {
  const memory = new InMemoryToolMemory();
  let recalls = 0;
  const recall = memory.recall.bind(memory);
  memory.recall = (ref: string) => {
    recalls += 1;
    return recall(ref);
  };
  const history = new HistoryManager({ minRetainRounds: 1 });
  const engine = new ContextEngine({
    history,
    builder: new ContextBuilder({ systemPrompt: 'You are a test agent.', historyForm: native ? 'native' : 'text' }),
    summarizer: summary,
    contextWindow: 20_000,
    compressionThreshold: 0.5,
    maxOutputTokens: 1_000,
    toolMemory: memory,
  });
  const requests: string[] = [];
  let stepNumber = 0;
  const ask = async (): Promise<void> => {
    const prepared: PreparedStep = await drain(engine.prepareStep(SIGNAL));
    expect(prepared.kind).toBe('ready');
    if (prepared.kind !== 'ready') return;
    const { context } = prepared;
    requests.push(native ? JSON.stringify(context.toNativeRequest()) : JSON.stringify(context.toRequestSegments()));
  };
  const runTurn = async (question: string, reads: number): Promise<void> => {
    await drain(engine.beginTurn(question, SIGNAL));
    for (let read = 1; read <= reads; read += 1) {
      await ask();
      stepNumber += 1;
      const step = stepNumber;
      const action = { tool: 'Read', input: { path: `f${step}.txt` } };
      const text = `Thought: next\nAction: Read[${JSON.stringify(action.input)}]`;
      // Without usage the trigger measures the whole turn at full size at every step (each full text is needed).
      const inputTokens = usage ? Math.ceil((requests.at(-1)?.length ?? 0) / 4) : 0;
      engine.recordReply({ step, text, usage: { ...ZERO_USAGE, inputTokens }, action });
      const lines = Array.from({ length: 80 }, (_, at) => `${at + 1}\tfile ${step} line ${at + 1} ${'-'.repeat(40)}`);
      const body = lines.join('\n');
      const call = { id: `call_${step}`, name: 'Read', input: action.input };
      engine.recordObservation({
        step,
        assistantText: text,
        action,
        ...(native ? { native: { reply: step, replyText: 'next', call, isError: false } } : {}),
        envelope: successEnvelope(
          { path: action.input.path, start_line: 1, end_line: 80, total_lines: 80, content: body },
          body,
        ),
      });
    }
    await ask();
    stepNumber += 1;
    engine.recordReply({ step: stepNumber, text: 'Done.', usage: ZERO_USAGE, roundEnd: 'answer' });
    engine.closeTurn('answer');
  };
  await runTurn('read all the files', 60);
  const firstTurnRecalls = recalls;
  await runTurn('and two more', 2);
  await runTurn('and two more again', 2);
  return { requests, firstTurnRecalls };
}

describe('one copy per result in a long turn', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const native of [true, false]) {
    for (const usage of [true, false]) {
      const name = `${native ? 'native' : 'text protocol'}, ${usage ? 'with' : 'without'} usage`;
      it(`sends the same requests as a turn that keeps every full text (${name})`, async () => {
        const released = await session(native, usage);
        vi.spyOn(LiveRounds.prototype, 'releaseShrunk').mockImplementation(() => undefined);
        const kept = await session(native, usage);
        expect(released.requests.length).toBe(kept.requests.length);
        for (const [index, request] of released.requests.entries()) {
          expect(request, `request ${index}`).toBe(kept.requests[index]);
        }
        // The ladder did shrink steps (the turn passed the threshold), so the release had something to do.
        expect(released.requests.some((request) => request.includes('read f1.txt lines 1-80 of 80'))).toBe(true);
        // The long turn reads nothing back from tool memory (a later compaction may, once per result).
        expect(released.firstTurnRecalls).toBe(0);
      });
    }
  }
});

describe('a released step', () => {
  it('still answers its full text, read back from tool memory by reference', () => {
    const memory = new InMemoryToolMemory();
    let recalls = 0;
    const recall = memory.recall.bind(memory);
    memory.recall = (ref: string) => {
      recalls += 1;
      return recall(ref);
    };
    const live = new LiveRounds(memory);
    const full = 'x'.repeat(5_000);
    const ref = memory.store(full);
    live.remember(ref, full);
    const kept = { assistant: 'a', observation: 'not stored', compressed: '{}' };
    const steps = [{ assistant: 'b', observation: full, compressed: '{}', ref }, kept];
    live.releaseShrunk(steps, 2);
    expect(recalls).toBe(0);
    expect(steps[0]?.observation).toBe(full);
    expect(recalls).toBe(1);
    expect(kept.observation).toBe('not stored');
    // A one-line copy of the step (object spread) does not carry the text.
    expect({ ...steps[0] }).not.toHaveProperty('observation');
  });
});
