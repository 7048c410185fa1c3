/** The native tool-use wire forms both providers build, and the pieces that assemble streamed calls. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toMessageParams } from '../../src/providers/anthropic-request.js';
import { ContentBlockAssembler } from '../../src/providers/content-blocks.js';
import { parseChunk, toStopReason } from '../../src/providers/openai-chunk.js';
import { isReasoningModel, toChatCompletionBody } from '../../src/providers/openai-request.js';
import { ToolCallAssembler } from '../../src/providers/openai-tool-calls.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { PARAMETERS_PLACEHOLDER, parameterSection } from '../../src/tools/registry/parameter-docs.js';
import { toolPromptsDir } from '../../src/tools/registry/prompt-files.js';
import { createDefaultRegistry, nativeDescription } from '../../src/tools/registry/registry.js';

const request: ModelRequest = {
  model: 'm',
  system: [{ text: 'L1', cacheBreakpoint: true }],
  user: [{ text: 'L3', cacheBreakpoint: true }, { text: 'input' }],
  tools: [{ name: 'Read', description: 'Read a file.', inputSchema: { type: 'object', properties: {} } }],
  turn: [
    {
      role: 'assistant',
      text: 'Looking.',
      calls: [
        { id: 'c1', name: 'Read', input: { path: 'a' } },
        { id: 'c2', name: 'Read', input: 'not json{' },
      ],
    },
    {
      role: 'user',
      results: [
        { id: 'c1', content: 'one', isError: false },
        { id: 'c2', content: 'Error [INVALID_PARAM]: …', isError: true },
      ],
      cacheBreakpoint: true,
    },
  ],
  tail: [{ text: '# Todo recap' }],
  maxTokens: 100,
};

describe('Anthropic native request', () => {
  it('sends tools, the turn as tool_use/tool_result messages, is_error, the tail last and at most four breakpoints', () => {
    const params = toMessageParams(request);
    expect(params.tools).toEqual([
      { name: 'Read', description: 'Read a file.', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(params.stop_sequences).toBeUndefined();
    expect(params.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(params.messages[1]!.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'c1', name: 'Read', input: { path: 'a' } },
      // Input that was not a JSON object is sent back as an empty object (its result already says why).
      { type: 'tool_use', id: 'c2', name: 'Read', input: {} },
    ]);
    expect(params.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
      {
        type: 'tool_result',
        tool_use_id: 'c2',
        content: 'Error [INVALID_PARAM]: …',
        is_error: true,
        cache_control: { type: 'ephemeral' },
      },
      { type: 'text', text: '# Todo recap' },
    ]);
    const marked = JSON.stringify(params).split('"cache_control"').length - 1;
    expect(marked).toBe(3);
  });

  it('assembles tool_use input from input_json_delta pieces; a cut input stays raw text', () => {
    const blocks = new ContentBlockAssembler();
    blocks.start(1, { type: 'tool_use', id: 'toolu_1', name: 'Read' });
    blocks.start(2, { type: 'tool_use', id: 'toolu_2', name: 'Edit' });
    blocks.delta(1, { type: 'input_json_delta', partial_json: '{"pa' });
    blocks.delta(2, { type: 'input_json_delta', partial_json: '{"path": "b", "old_str' });
    blocks.delta(1, { type: 'input_json_delta', partial_json: 'th": "a"}' });
    expect(blocks.stop(1)).toEqual({ type: 'tool_call', call: { id: 'toolu_1', name: 'Read', input: { path: 'a' } } });
    expect(blocks.stop(2)).toEqual({
      type: 'tool_call',
      call: { id: 'toolu_2', name: 'Edit', input: '{"path": "b", "old_str' },
    });
  });
});

describe('OpenAI-compatible native request', () => {
  it('sends function tools, assistant tool_calls and one tool message per result, then the tail', () => {
    const body = toChatCompletionBody(request);
    expect(body.tools?.[0]).toEqual({
      type: 'function',
      function: { name: 'Read', description: 'Read a file.', parameters: { type: 'object', properties: {} } },
    });
    expect(body.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: 'Looking.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"a"}' } },
        { id: 'c2', type: 'function', function: { name: 'Read', arguments: 'not json{' } },
      ],
    });
    expect(body.messages[4]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'Error [INVALID_PARAM]: …' });
    expect(body.max_tokens).toBe(100);
  });

  it('reasoning models get max_completion_tokens and no stop; others keep max_tokens and stop', () => {
    for (const model of ['gpt-5', 'gpt-5-mini', 'o3', 'o4-mini', 'openai/o1'])
      expect(isReasoningModel(model)).toBe(true);
    for (const model of ['gpt-4.1', 'gpt-4o', 'llama3.1', 'qwen2.5-coder']) expect(isReasoningModel(model)).toBe(false);
    const text: ModelRequest = {
      model: 'o3',
      system: [],
      user: [{ text: 'hi' }],
      maxTokens: 50,
      stopSequences: ['\nObservation:'],
    };
    expect(toChatCompletionBody(text)).toMatchObject({ max_completion_tokens: 50 });
    expect(toChatCompletionBody(text).stop).toBeUndefined();
    expect(toChatCompletionBody(text).max_tokens).toBeUndefined();
    expect(toChatCompletionBody({ ...text, model: 'gpt-4.1' })).toMatchObject({
      max_tokens: 50,
      stop: ['\nObservation:'],
    });
  });

  it('assembles parallel streamed tool_calls by index, in index order, whatever order the deltas come in', () => {
    const calls = new ToolCallAssembler();
    const chunks = [
      { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'Glob', arguments: '' } }] },
      { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'Read', arguments: '{"path"' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{"pattern":"*.ts"}' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ':"a.ts"}' } }] },
    ];
    for (const delta of chunks) calls.add(parseChunk(JSON.stringify({ choices: [{ index: 0, delta }] })).toolCalls);
    expect(calls.finish()).toEqual([
      { id: 'call_a', name: 'Read', input: { path: 'a.ts' } },
      { id: 'call_b', name: 'Glob', input: { pattern: '*.ts' } },
    ]);
    expect(toStopReason('tool_calls')).toBe('tool_use');
  });
});

describe('tool definitions', () => {
  it('come from the zod schemas and the prompt prose, without the text protocol examples', () => {
    const specs = createDefaultRegistry().toolSpecs();
    const read = specs.find((spec) => spec.name === 'Read')!;
    expect(read.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer', maximum: 2000, default: 500 } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(read.inputSchema).not.toHaveProperty('$schema');
    for (const spec of specs) {
      expect(spec.description).not.toMatch(/^Action:/m);
      expect(spec.description).not.toMatch(/^#/);
      expect(spec.description.length).toBeGreaterThan(40);
    }
    expect(read.inputSchema).toMatchObject({ properties: { start_line: { description: 'first line to show.' } } });
    for (const spec of specs) expect(spec.description).not.toContain('Parameters (JSON)');
    expect(nativeDescription('## X\nDoes x.\n\n{{parameters}}\n\nExamples:\nAction: X[{}]')).toBe('Does x.');
  });

  it('generate the parameter sections of the text protocol prompts; the prompt files keep only the prose', () => {
    const schema = z.strictObject({
      path: z.string().describe('where.'),
      depth: z.number().int().min(1).max(9).default(3).describe('how deep.'),
      tags: z.array(z.string()).default([]),
      mode: z.enum(['a', 'b']).optional(),
      items: z
        .array(z.strictObject({ x: z.string() }))
        .min(1)
        .max(5)
        .describe('the items.'),
    });
    expect(parameterSection(schema)).toBe(
      [
        'Parameters (JSON):',
        '- `path` (string, required): where.',
        '- `depth` (integer 1–9, default 3): how deep.',
        '- `tags` (string[], default []).',
        '- `mode` ("a" | "b", optional).',
        '- `items` (array of 1–5, required): the items.',
      ].join('\n'),
    );
    for (const tool of createDefaultRegistry().list()) {
      const promptFile = 'promptFile' in tool.description ? tool.description.promptFile : '';
      const file = readFileSync(join(toolPromptsDir(), promptFile), 'utf8');
      expect(file, tool.name).toContain(PARAMETERS_PLACEHOLDER);
      expect(file, tool.name).not.toContain('Parameters (JSON)');
    }
    const read = createDefaultRegistry()
      .prompts()
      .find((entry) => entry.name === 'Read')!.prompt;
    expect(read).toContain('- `limit` (integer 1–2000, default 500): number of lines.');
  });
});
