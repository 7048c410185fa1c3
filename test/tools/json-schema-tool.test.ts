/**
 * A tool defined with a JSON Schema only (no zod, no prompt file), as an MCP tool will be: the registry validates
 * its calls with ajv (the model sees an INVALID_PARAM observation naming every problem), and history, the
 * degradation ladder, the facts ledger and the transcript read the tool's own members, never a switch on its name.
 */
import { describe, expect, it } from 'vitest';
import { factsLedger } from '../../src/context/facts-ledger.js';
import { shrinkToolMessage } from '../../src/context/tool-result-shrinker.js';
import { defineTool, jsonSchemaInput, type JsonRecord } from '../../src/tools/registry/define-tool.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { resultDiff, summarizeCall, summarizeResult } from '../../src/ui/format-tool.js';
import { createHarness, userText } from '../helpers/agent-harness.js';
import { act, finish } from '../helpers/scripted-provider.js';

const ECHO_SCHEMA = {
  type: 'object',
  properties: {
    word: { type: 'string', description: 'What to repeat.' },
    times: { type: 'integer', minimum: 1, default: 2 },
    file: { type: 'string' },
  },
  required: ['word'],
  additionalProperties: false,
};

const echoTool = defineTool({
  name: 'Echo',
  description: 'Repeats a word. Read-only.',
  inputSchema: jsonSchemaInput(ECHO_SCHEMA),
  permission: 'none',
  run: (input) => {
    const { word, times } = input as { word: string; times: number };
    return Promise.resolve(successEnvelope({ out: word.repeat(times), times, filler: 'x'.repeat(50) }, 'echoed'));
  },
  compress: (data) => ({ echoed: data.out }),
  shrink: (data) => `echo gave ${String(data.echoed)}`,
  locations: (input) => (typeof input.file === 'string' ? [{ path: input.file, kind: 'read' }] : []),
  display: {
    title: (input) => `${String(input.word)} ×${String(input.times ?? 2)}`,
    summary: (data: JsonRecord) => `${String(data.out)} (${String(data.times)} times)`,
  },
});

describe('a JSON Schema tool', () => {
  it('validates with ajv, and is compressed, shrunk, ledgered and displayed through its own members', async () => {
    const h = await createHarness([
      () => {
        h.registry.register(echoTool);
        return act('Echo', { times: 0, colour: 'red' });
      },
      act('Echo', { word: 'hi', file: 'notes.txt' }),
      finish('echoed'),
    ]);
    const events = await h.turn('echo something');

    // Bad input: the model is told every problem in one INVALID_PARAM observation, and the tool did not run.
    const afterBad = userText(h.provider.requests[1]);
    expect(afterBad).toContain('INVALID_PARAM');
    expect(afterBad).toContain('Invalid input for Echo: ');
    expect(afterBad).toContain('"word" is required');
    expect(afterBad).toContain('unknown field "colour"');
    expect(afterBad).toContain('"times" must be >= 1');
    expect(afterBad).toContain('Allowed fields: word, times, file.');

    // Good input: the schema's default applies, and history keeps the tool's own compressed form.
    const ends = events.filter((event) => event.type === 'tool_end');
    expect(ends[1]).toMatchObject({ tool: 'Echo', result: { status: 'success', data: { out: 'hihi', times: 2 } } });
    const stored = h.agent.history().filter((message) => message.role === 'tool');
    const compressed = stored[1]?.content ?? '';
    expect(JSON.parse(compressed)).toMatchObject({ status: 'success', data: { echoed: 'hihi' } });
    expect(compressed).not.toContain('filler');

    expect(JSON.parse(shrinkToolMessage(compressed, 'Echo'))).toMatchObject({
      tool: 'Echo',
      summary: 'echo gave hihi',
    });
    expect(factsLedger(h.agent.history())).toContain('- Files read: notes.txt (R1)');

    const input = { word: 'hi', times: 2 };
    expect(summarizeCall('Echo', input, 80)).toBe('Echo(hi ×2)');
    const result = successEnvelope({ out: 'hihi', times: 2 }, 'echoed');
    expect(summarizeResult('Echo', result)).toEqual({ line: 'hihi (2 times)', tone: 'normal' });
    expect(resultDiff('Echo', result)).toBeUndefined();
  });

  it('gets the generic behaviour for every member it leaves out', async () => {
    const bare = defineTool({
      name: 'Bare',
      description: 'Says hello.',
      inputSchema: jsonSchemaInput({ type: 'object' }),
      permission: 'none',
      run: () => Promise.resolve(successEnvelope({ greeting: 'hello' }, 'hello there\nsecond line')),
    });
    const h = await createHarness([
      () => {
        h.registry.register(bare);
        return act('Bare', { to: 'you' });
      },
      finish('done'),
    ]);
    await h.turn('greet');
    const compressed = h.agent.history().find((message) => message.role === 'tool')?.content ?? '';
    expect(JSON.parse(compressed)).toMatchObject({ status: 'success', data: { greeting: 'hello' } });
    expect(JSON.parse(shrinkToolMessage(compressed, 'Bare')).summary).toMatch(/^result of \d+ characters$/);
    expect(summarizeCall('Bare', { to: 'you' }, 80)).toBe('Bare({"to":"you"})');
    expect(summarizeResult('Bare', successEnvelope({}, 'hello there\nsecond line')).line).toBe('hello there …');
  });
});
