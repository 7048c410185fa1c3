/**
 * Issue 42, long sessions: the process keeps a bounded copy of full tool results (least recently used out, bounded
 * by characters). What was evicted is still whole for the model: a build reads it back from tool memory, and Recall
 * of an evicted reference returns the full text, as the next request to the model shows.
 */
import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { FullResultCache } from '../../src/context/full-result-cache.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import { successEnvelope, type ToolEnvelope } from '../../src/tools/registry/envelope.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { InMemoryToolMemory, toolRefOf } from '../../src/tools/memory/tool-memory.js';
import { makeContext, runTool } from '../tools/helpers.js';

const SIGNAL = new AbortController().signal;

const noSummary: Summarizer = {
  summarize: async () => ({ ok: false as const, reason: 'failed' as const, detail: 'not expected' }),
};

/** 4,000 characters of lines no other output shares. */
const output = (name: string) =>
  Array.from({ length: 100 }, (_, at) => `${name} line ${String(at + 1).padStart(3, '0')} ${'='.repeat(20)}`).join(
    '\n',
  );

/** Tool memory that counts how often a reference is read back. */
class CountingMemory extends InMemoryToolMemory {
  readonly reads = new Map<string, number>();
  override recall(ref: string): string | undefined {
    this.reads.set(ref, (this.reads.get(ref) ?? 0) + 1);
    return super.recall(ref);
  }
}

function engineOn(history: HistoryManager, toolMemory: CountingMemory, cacheChars: number): ContextEngine {
  return new ContextEngine({
    history,
    builder: new ContextBuilder({ systemPrompt: 'You are a test agent.' }),
    summarizer: noSummary,
    contextWindow: 200_000,
    compressionThreshold: 0.5,
    maxOutputTokens: 1_000,
    toolMemory,
    fullResultCacheChars: cacheChars,
  });
}

async function drain<R>(run: AsyncGenerator<ContextEvent | { type: 'turn_opened'; round: number }, R>): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) if (next.done) return next.value;
}

/** The request the model would get now, as one text. */
async function nextRequest(engine: ContextEngine): Promise<string> {
  const prepared: PreparedStep = await drain(engine.prepareStep(SIGNAL));
  if (prepared.kind !== 'ready') throw new Error('not sendable');
  const { system, user } = prepared.context.toRequestSegments();
  return [...system, ...user].map((segment) => segment.text).join('\n');
}

/** One turn: each step runs a tool whose result is `envelope`, then the turn finishes. Returns the last request. */
async function turn(
  engine: ContextEngine,
  question: string,
  steps: Array<{ tool: string; input: Record<string, unknown>; envelope: ToolEnvelope }>,
): Promise<string> {
  await drain(engine.beginTurn(question, SIGNAL));
  let request = await nextRequest(engine);
  let step = 0;
  for (const entry of steps) {
    step += 1;
    const text = `Thought: step ${step}\nAction: ${entry.tool}[${JSON.stringify(entry.input)}]`;
    const action = { tool: entry.tool, input: entry.input };
    engine.recordReply({ step, text, usage: { ...ZERO_USAGE, inputTokens: 1_000 }, action });
    engine.recordObservation({ step, assistantText: text, action, envelope: entry.envelope });
    request = await nextRequest(engine);
  }
  engine.recordReply({
    step: step + 1,
    text: 'Thought: done\nAction: Finish[ok]',
    usage: { ...ZERO_USAGE, inputTokens: 1_000 },
    roundEnd: 'finish',
  });
  return request;
}

const bash = (command: string, stdout: string) => ({
  tool: 'Bash',
  input: { command },
  envelope: successEnvelope({ command, exit_code: 0, stdout, stderr: '' }, stdout),
});

describe('the bounded copy of full results', () => {
  it('evicts the least recently used entry first and never holds more than its bound', () => {
    const cache = new FullResultCache(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the newest
    cache.set('c', 'cccc');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    expect(cache.get('c')).toBe('cccc');
    expect(cache.chars).toBe(8);
    cache.set('huge', 'x'.repeat(11)); // larger than the whole bound: not kept, nothing evicted for it
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.chars).toBe(8);
  });

  it('a resumed session whose results do not fit the copy still shows each one in full, read back from tool memory', async () => {
    const history = new HistoryManager({ minRetainRounds: 10 });
    const memory = new CountingMemory();
    const first = engineOn(history, memory, 5_000);
    await turn(first, 'run alpha', [bash('alpha', output('alpha'))]);
    await turn(first, 'run beta', [bash('beta', output('beta'))]);
    // A new engine on the same history and tool memory (as `-c` builds), whose copy holds one result at most.
    const resumed = engineOn(history, memory, 5_000);
    await drain(resumed.beginTurn('and now?', SIGNAL));
    const request = await nextRequest(resumed);
    expect(request).toContain(output('alpha'));
    expect(request).toContain(output('beta'));
    expect(memory.reads.get(toolRefOf(output('alpha')))).toBeGreaterThan(0);
  });

  it('Recall of an evicted reference returns the full text in the next request to the model', async () => {
    const history = new HistoryManager({ minRetainRounds: 10 });
    const memory = new CountingMemory();
    const engine = engineOn(history, memory, 5_000);
    await turn(engine, 'run alpha', [bash('alpha', output('alpha'))]);
    // beta's 4,000 characters push alpha out of the 5,000-character copy.
    await turn(engine, 'run beta', [bash('beta', output('beta'))]);
    const ref = toolRefOf(output('alpha'));
    const recalled = await runTool(
      createDefaultRegistry(),
      'Recall',
      { ref, start_line: 1, limit: 2000 },
      { ...makeContext(process.cwd()), ...(engine.toolMemory ? { toolMemory: engine.toolMemory } : {}) },
    );
    const request = await turn(engine, 'what did alpha print?', [
      { tool: 'Recall', input: { ref }, envelope: recalled },
    ]);
    expect(recalled.status).toBe('success');
    expect(request).toContain('1\talpha line 001');
    expect(request).toContain('100\talpha line 100 ====================');
  });
});
