/**
 * Tool aliases (ToolDefinition.aliases, the Agent tool's `Task`): a call under an alias runs the tool and reaches
 * the decision point and afterRun under the tool's own name; the model is told the name only; an alias cannot
 * shadow another tool; the catalog resolves it for the parts that meet a tool only by name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineTool, jsonSchemaInput, type ToolCall } from '../../src/tools/registry/define-tool.js';
import { successEnvelope, type ToolEnvelope } from '../../src/tools/registry/envelope.js';
import { ToolRegistry } from '../../src/tools/registry/registry.js';
import { canonicalToolName, toolNamed, toolNamesOf } from '../../src/tools/registry/tool-catalog.js';
import { makeContext, makeProject, type TestProject } from './helpers.js';

let project: TestProject;
beforeEach(async () => {
  project = await makeProject({});
});
afterEach(() => project.cleanup());

const echo = defineTool({
  name: 'EchoNew',
  aliases: ['EchoOld'],
  description: 'Echoes.',
  inputSchema: jsonSchemaInput({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  permission: 'none',
  display: { title: () => 'echo-title' },
  run: (input) => Promise.resolve(successEnvelope({ said: (input as { text: string }).text }, 'echoed')),
});

describe('tool aliases', () => {
  it('a call under the alias runs the tool; the decision point and afterRun see the tool name', async () => {
    const registry = new ToolRegistry().register(echo);
    const decided: ToolCall[] = [];
    const after: ToolCall[] = [];
    const ctx = {
      ...makeContext(project.root),
      gate: {
        decide: (call: ToolCall) => {
          decided.push(call);
          return Promise.resolve({ behavior: 'allow' as const });
        },
        afterRun: (call: ToolCall, envelope: ToolEnvelope) => {
          after.push(call);
          return Promise.resolve(envelope);
        },
      },
    };
    const result = await registry.run({ id: 'toolu_1', name: 'EchoOld', input: { text: 'hi' }, source: 'model' }, ctx);
    expect(result.status).toBe('success');
    expect(result.data).toEqual({ said: 'hi' });
    expect(decided.map((call) => call.name)).toEqual(['EchoNew']);
    expect(after.map((call) => [call.id, call.name])).toEqual([['toolu_1', 'EchoNew']]);
    expect(registry.get('EchoOld')?.name).toBe('EchoNew');
    expect(registry.isReadOnly('EchoOld')).toBe(true);
    // The model is told the tool's name only.
    expect(registry.names()).toEqual(['EchoNew']);
    expect(registry.toolSpecs().map((spec) => spec.name)).toEqual(['EchoNew']);
  });

  it('an alias cannot be taken by another tool, and leaves with its tool', () => {
    const registry = new ToolRegistry().register(echo);
    const clash = defineTool({
      name: 'EchoOld',
      description: 'x',
      inputSchema: jsonSchemaInput({ type: 'object' }),
      permission: 'none',
      run: () => Promise.resolve(successEnvelope({}, '')),
    });
    expect(() => registry.register(clash)).toThrow(/EchoOld is already registered/);
    expect(registry.unregister('EchoNew')).toBe(true);
    expect(registry.get('EchoOld')).toBeUndefined();
    expect(registry.canonicalName('EchoOld')).toBeUndefined();
  });

  it('the catalog resolves the alias for display, compression and hook matchers', () => {
    new ToolRegistry().register(echo);
    expect(canonicalToolName('EchoOld')).toBe('EchoNew');
    expect(toolNamesOf('EchoOld')).toEqual(['EchoNew', 'EchoOld']);
    expect(toolNamed('EchoOld')?.display?.title?.({})).toBe('echo-title');
    expect(canonicalToolName('NoSuchTool')).toBe('NoSuchTool');
  });
});
