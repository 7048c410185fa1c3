/**
 * Native tool use never separates a call from its result: random replies with several calls (read-only ones run
 * concurrently, the others one by one; some fail, some name no tool), random turn ends and random compactions
 * through the real ContextEngine. After every operation the history keeps its shape and each stored call is
 * directly followed by its result with the same call id; every request of the open turn pairs each `tool_use` with
 * a `tool_result` of the same id, in the same order, in the very next message.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { applyNativeReply } from '../../src/loop/native-step.js';
import { TurnState } from '../../src/loop/turn-state.js';
import { ContextBuilder } from '../../src/context/context-builder.js';
import { ContextEngine } from '../../src/context/context-engine.js';
import { HistoryManager } from '../../src/context/history-manager.js';
import { historyViolations } from '../../src/context/history-invariants.js';
import type { Message } from '../../src/context/message.js';
import type { Summarizer } from '../../src/context/summary-compressor.js';
import { toMessageParams } from '../../src/providers/anthropic-request.js';
import { ZERO_USAGE } from '../../src/providers/types.js';
import { defineTool } from '../../src/tools/registry/define-tool.js';
import { errorEnvelope, successEnvelope } from '../../src/tools/registry/envelope.js';
import { FileStateRecord } from '../../src/tools/files/file-state.js';
import { ToolRegistry } from '../../src/tools/registry/registry.js';
import { TodoStore } from '../../src/tools/planning/todo-store.js';

const RUNS = Number(process.env.MCA_FUZZ_RUNS ?? 100);
const SIGNAL = new AbortController().signal;

const input = z.strictObject({ size: z.number().int().min(0), fail: z.boolean() });
const run = async (value: z.output<typeof input>) =>
  value.fail ? errorEnvelope('NOT_FOUND', 'no such thing') : successEnvelope({}, 'x'.repeat(value.size));
const registry = new ToolRegistry()
  .register(defineTool({ name: 'Peek', promptFile: 'Read.md', inputSchema: input, permission: 'none', run }))
  .register(defineTool({ name: 'Poke', promptFile: 'Edit.md', inputSchema: input, permission: 'edit', run }));

class OkSummarizer implements Summarizer {
  summarize() {
    return Promise.resolve({ ok: true as const, text: '## 📌 Archived Session Summary\n- work', usage: ZERO_USAGE });
  }
}

const call = fc.record({
  name: fc.constantFrom('Peek', 'Poke', 'Nope'),
  size: fc.nat(3_000),
  fail: fc.boolean(),
});
const operation = fc.oneof(
  fc.record({
    kind: fc.constant('reply' as const),
    text: fc.string({ maxLength: 20 }),
    calls: fc.array(call, { maxLength: 5 }),
  }),
  fc.record({ kind: fc.constant('end' as const) }),
  fc.record({ kind: fc.constant('compact' as const) }),
);

/** Every stored call is directly followed by its result, with the same id. */
function pairingViolations(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const id = message.metadata.callId;
    if (id === undefined) return;
    const other = message.role === 'assistant' ? messages[index + 1] : messages[index - 1];
    const expected = message.role === 'assistant' ? 'tool' : 'assistant';
    if (other?.role !== expected || other.metadata.callId !== id) problems.push(`call ${id} at #${index} is unpaired`);
  });
  return problems;
}

type Block = { type: string; id?: string; tool_use_id?: string };

describe('native calls and results stay paired', () => {
  it('through parallel replies, turn ends and compactions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 3 }),
        async (ops, retain) => {
          const history = new HistoryManager({ minRetainRounds: retain }, []);
          const engine = new ContextEngine({
            history,
            builder: new ContextBuilder({ systemPrompt: 'test' }),
            summarizer: new OkSummarizer(),
            contextWindow: 20_000,
            compressionThreshold: 0.8,
            maxOutputTokens: 1_000,
          });
          let turn: TurnState | undefined;
          let step = 0;
          let ids = 0;
          for (const op of ops) {
            if (op.kind === 'compact') {
              if (turn === undefined) for await (const _ of engine.compact({ signal: SIGNAL })) void _;
            } else if (op.kind === 'end') {
              if (turn !== undefined) engine.closeTurn('interrupted', 'stopped');
              turn = undefined;
            } else {
              if (turn === undefined) {
                for await (const _ of engine.beginTurn('do it', SIGNAL)) void _;
                turn = new TurnState(100);
                step = 0;
              }
              step += 1;
              const prepared = await drain(engine.prepareStep(SIGNAL));
              void prepared;
              const calls = op.calls.map((entry) => ({
                id: `toolu_${++ids}`,
                name: entry.name,
                input: { size: entry.size, fail: entry.fail },
              }));
              const reply = {
                text: op.text,
                calls,
                thinking: [],
                usage: ZERO_USAGE,
                stopReason: calls.length > 0 ? ('tool_use' as const) : ('end_turn' as const),
              };
              const services = {
                context: engine,
                outputLimitTokens: 1_000,
                registry,
                toolContext: {
                  projectRoot: '/',
                  signal: SIGNAL,
                  fileState: new FileStateRecord(),
                  todos: new TodoStore(),
                  gate: { decide: () => Promise.resolve({ behavior: 'allow' as const }) },
                },
                stopped: () => false,
              };
              const outcome = await drain(applyNativeReply(turn, reply, step, services));
              if (outcome !== undefined) {
                engine.closeTurn(outcome.reason, outcome.answer);
                turn = undefined;
              } else {
                const next = await drain(engine.prepareStep(SIGNAL));
                const params = toMessageParams({ model: 'm', ...next.context.toNativeRequest(), maxTokens: 100 });
                expect(requestPairing(params.messages as Array<{ role: string; content: unknown }>)).toEqual([]);
              }
            }
            expect(historyViolations(history.messages)).toEqual([]);
            expect(pairingViolations(history.messages)).toEqual([]);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

async function drain<R>(generator: AsyncGenerator<unknown, R>): Promise<R> {
  for (let next = await generator.next(); ; next = await generator.next()) if (next.done) return next.value;
}

function requestPairing(messages: ReadonlyArray<{ role: string; content: unknown }>): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const uses = (message.content as Block[]).filter((block) => block.type === 'tool_use').map((block) => block.id);
    const next = messages[index + 1];
    const results = Array.isArray(next?.content)
      ? (next.content as Block[]).filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id)
      : [];
    if (next?.role !== 'user' || JSON.stringify(uses) !== JSON.stringify(results)) {
      problems.push(`message #${index}: calls ${uses.join(',')} answered by ${results.join(',')}`);
    }
  });
  if (messages.at(-1)?.role !== 'user') problems.push('the request does not end with a user message');
  return problems;
}
