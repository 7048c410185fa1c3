/**
 * Engine v4 from the model's side (DESIGN.md "Turn and round", "Compaction"): below the threshold every earlier tool
 * result is in the request as the model first saw it and each request starts with the previous one; a threshold
 * crossing rewrites once, by value: the working set stays whole, a stale Read shrinks with its reference, and the
 * reference still recalls the full text.
 */
import { describe, expect, it } from 'vitest';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine, type PreparedStep } from '../../src/context/context-engine.js';
import type { ContextEvent } from '../../src/context/context-events.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import type { Message } from '../../src/context/message.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { ZERO_USAGE, type PromptSegment } from '../../src/providers/types.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';

const SIGNAL = new AbortController().signal;

class FakeSummarizer implements Summarizer {
  async summarize(_messages: readonly Message[]) {
    return { ok: true as const, text: '## 📌 Archived Session Summary\nearlier work', usage: { ...ZERO_USAGE } };
  }
}

function fileText(name: string, version: number, lines = 60): string {
  return Array.from({ length: lines }, (_, at) => `${at + 1}\tconst ${name}_${at} = v${version}(${at}); // line`).join(
    '\n',
  );
}

function readEnvelope(path: string, text: string) {
  const total = text.split('\n').length;
  return successEnvelope({ path, start_line: 1, end_line: total, total_lines: total, content: text }, text);
}

function bashEnvelope(command: string, stdout: string) {
  return successEnvelope({ command, exit_code: 0, stdout, stderr: '' }, stdout);
}

function setup(options: { window: number; threshold: number; native?: boolean }) {
  const history = new HistoryManager({ minRetainRounds: 10 });
  const toolMemory = new InMemoryToolMemory();
  const engine = new ContextEngine({
    history,
    builder: new ContextBuilder({
      systemPrompt: 'You are a test agent.',
      historyForm: options.native ? 'native' : 'text',
    }),
    summarizer: new FakeSummarizer(),
    contextWindow: options.window,
    compressionThreshold: options.threshold,
    maxOutputTokens: 1_000,
    toolMemory,
  });
  return { engine, history, toolMemory };
}

async function drain<R>(run: AsyncGenerator<ContextEvent | { type: 'turn_opened'; round: number }, R>): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) if (next.done) return next.value;
}

async function prepare(engine: ContextEngine): Promise<{ system: PromptSegment[]; user: PromptSegment[] }> {
  const prepared: PreparedStep = await drain(engine.prepareStep(SIGNAL));
  expect(prepared.kind).toBe('ready');
  return prepared.context.toRequestSegments();
}

type Envelope = ReturnType<typeof readEnvelope>;

/** One turn: a tool step per entry, then a Finish whose usage is `usage` tokens. Returns every request sent. */
async function turn(
  engine: ContextEngine,
  question: string,
  steps: Array<{ tool: string; input: Record<string, unknown>; envelope: Envelope | ReturnType<typeof bashEnvelope> }>,
  usage = 1_000,
) {
  await drain(engine.beginTurn(question, SIGNAL));
  const requests = [await prepare(engine)];
  let step = 0;
  for (const entry of steps) {
    step += 1;
    const text = `Thought: step ${step}\nAction: ${entry.tool}[${JSON.stringify(entry.input)}]`;
    const action = { tool: entry.tool, input: entry.input };
    engine.recordReply({ step, text, usage: { ...ZERO_USAGE, inputTokens: usage }, action });
    engine.recordObservation({ step, assistantText: text, action, envelope: entry.envelope });
    requests.push(await prepare(engine));
  }
  const usageOut = { ...ZERO_USAGE, inputTokens: usage };
  engine.recordReply({
    step: step + 1,
    text: 'Thought: done\nAction: Finish[ok]',
    usage: usageOut,
    roundEnd: 'finish',
  });
  return requests;
}

const texts = (request: { system: PromptSegment[]; user: PromptSegment[] }) =>
  [...request.system, ...request.user].map((segment) => segment.text);

/** A native turn: one call per step, then a plain answer. Returns every request's native parts. */
async function nativeTurn(engine: ContextEngine, question: string, outputs: string[]) {
  await drain(engine.beginTurn(question, SIGNAL));
  const requests = [];
  const next = async () => {
    const prepared = await drain(engine.prepareStep(SIGNAL));
    if (prepared.kind !== 'ready') throw new Error('not sendable');
    return prepared.context.toNativeRequest();
  };
  requests.push(await next());
  let step = 0;
  for (const output of outputs) {
    step += 1;
    const call = { id: `${question}-${step}`, name: 'Bash', input: { command: `run ${step}` } };
    const action = { tool: 'Bash', input: call.input };
    engine.recordReply({
      step,
      text: `step ${step}`,
      usage: { ...ZERO_USAGE, inputTokens: 500 },
      action,
      callId: call.id,
    });
    engine.recordObservation({
      step,
      assistantText: `step ${step}`,
      action,
      envelope: bashEnvelope(call.input.command, output),
      native: { reply: step, replyText: `step ${step}`, call, isError: false },
    });
    requests.push(await next());
  }
  engine.recordReply({
    step: step + 1,
    text: 'all done',
    usage: { ...ZERO_USAGE, inputTokens: 500 },
    roundEnd: 'answer',
  });
  return requests;
}

/** A native request as its blocks' texts, in order (system, user blocks, then each message's content). */
function nativeTexts(request: Awaited<ReturnType<typeof nativeTurn>>[number]): string[] {
  return [
    ...request.system.map((segment) => segment.text),
    ...request.user.map((segment) => segment.text),
    ...request.turn.map((message) =>
      message.role === 'assistant'
        ? `${message.text} ${JSON.stringify(message.calls)}`
        : `${message.results.map((result) => result.content).join('|')} ${message.text ?? ''}`,
    ),
  ];
}

describe('no forgetting without pressure', () => {
  it('native tool use: the next turn sends the closed round as the same messages, full results included', async () => {
    const { engine } = setup({ window: 200_000, threshold: 0.5, native: true });
    const log = `${'a long test log line\n'.repeat(300)}FAILED: 1`;
    const first = await nativeTurn(engine, 'run the tests', [log]);
    const second = await nativeTurn(engine, 'fix it', ['fixed']);
    const before = nativeTexts(first.at(-1)!);
    const after = nativeTexts(second[0]!);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.join('\n')).toContain(log);
    // The closed round ends with its answer, then the new request follows as a user message.
    expect(second[0]!.turn.at(-2)).toMatchObject({ role: 'assistant', text: 'all done', calls: [] });
    expect(second[0]!.turn.at(-1)).toMatchObject({ role: 'user', text: '# Request\n\nfix it' });
  });

  it('carries the first round’s full result byte-identical, each request starting with the previous one', async () => {
    const { engine } = setup({ window: 200_000, threshold: 0.5 });
    const big = fileText('alpha', 1, 800);
    const first = await turn(engine, 'read alpha', [
      { tool: 'Read', input: { path: 'alpha.ts' }, envelope: readEnvelope('alpha.ts', big) },
    ]);
    const second = await turn(engine, 'now the tests', [
      { tool: 'Bash', input: { command: 'npm test' }, envelope: bashEnvelope('npm test', 'all 3 tests passed') },
    ]);
    const lastOfFirst = texts(first.at(-1)!);
    const firstOfSecond = texts(second[0]!);
    // The full observation (800 lines; its compressed form keeps at most 500) is there, byte for byte.
    expect(firstOfSecond.join('\n')).toContain(`Observation: ${big}`);
    // The cached prefix only grows: the new request starts with every block of the previous one, unchanged.
    expect(firstOfSecond.slice(0, lastOfFirst.length)).toEqual(lastOfFirst);
    for (let at = 1; at < second.length; at += 1) {
      const before = texts(second[at - 1]!);
      expect(texts(second[at]!).slice(0, before.length)).toEqual(before);
    }
  });

  it('under pressure keeps the working set whole, shrinks a stale Read to its reference, and Recall brings it back', async () => {
    const { engine, history, toolMemory } = setup({ window: 20_000, threshold: 0.5 });
    const staleOld = fileText('stale', 1);
    const staleNew = fileText('stale', 2);
    const work = fileText('work', 1);
    const filler = (round: number) => `${'output line of a long build log\n'.repeat(60)}round ${round}`;
    for (let round = 1; round <= 12; round += 1) {
      const steps =
        round === 3
          ? [{ tool: 'Read', input: { path: 'stale.ts' }, envelope: readEnvelope('stale.ts', staleOld) }]
          : round === 5
            ? [{ tool: 'Read', input: { path: 'stale.ts' }, envelope: readEnvelope('stale.ts', staleNew) }]
            : round === 10
              ? [{ tool: 'Read', input: { path: 'work.ts' }, envelope: readEnvelope('work.ts', work) }]
              : [
                  {
                    tool: 'Bash',
                    input: { command: `make ${round}` },
                    envelope: bashEnvelope(`make ${round}`, filler(round)),
                  },
                ];
      await turn(engine, `task ${round}`, steps, round === 12 ? 10_500 : 1_000);
    }
    await drain(engine.beginTurn('task 13', SIGNAL));
    expect(history.messages.some((message) => message.role === 'summary')).toBe(true);
    const request = texts(await prepare(engine)).join('\n');
    // The working set (work.ts, read in the newest three rounds) is whole.
    expect(request).toContain(work);
    // The stale Read (stale.ts, read again in round 5) shrank, keeping its reference ...
    const staleMessage = history.messages.find(
      (message) => message.role === 'tool' && message.metadata.round === 3 && message.metadata.toolName === 'Read',
    );
    expect(staleMessage?.metadata.shrunk).toBe(true);
    const ref = staleMessage?.metadata.ref ?? '';
    expect(ref).toMatch(/^r[0-9a-f]{12}$/);
    expect(request).not.toContain(staleOld.split('\n')[30]!);
    expect(request).toContain(ref);
    // ... and Recall of it returns the full text.
    expect(toolMemory.recall(ref)).toBe(staleOld);
    // Twelve closed rounds, ten retained: every round that left is covered by the archive entry.
    const covered = history.messages.find((message) => message.role === 'summary')?.metadata.coversRounds;
    expect(covered).toEqual([1, 2]);
  });
});
