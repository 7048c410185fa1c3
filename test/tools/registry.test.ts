import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readyPlan } from '../../src/tools/registry/define-tool.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { createDefaultRegistry, ToolRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, type TestProject, runTool } from './helpers.js';

const TEN = [
  'LS',
  'Glob',
  'Grep',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Bash',
  'TaskOutput',
  'TaskStop',
  'TodoWrite',
  'Recall',
  'ExitPlanMode',
  'WebFetch',
];
let project: TestProject;

beforeEach(async () => {
  project = await makeProject({ 'a.txt': 'hello\n' });
});
afterEach(() => project.cleanup());

const boom = defineTool({
  name: 'Boom',
  promptFile: 'Read.md',
  inputSchema: z.strictObject({ n: z.number().int().min(1) }),
  permission: 'none',
  async run() {
    throw new Error('kaboom');
  },
});

describe('ToolRegistry', () => {
  it('registers all fourteen tools with their prompts, read-only flags and names', () => {
    const registry = createDefaultRegistry();
    expect(registry.names()).toEqual(TEN);
    expect(TEN.filter((name) => registry.isReadOnly(name))).toEqual([
      'LS',
      'Glob',
      'Grep',
      'Read',
      'TaskOutput',
      'TaskStop',
      'TodoWrite',
      'Recall',
    ]);
    expect(registry.list().map((tool) => tool.permission)).toEqual([
      'none',
      'none',
      'none',
      'none',
      'edit',
      'edit',
      'edit',
      'exec',
      'none',
      'none',
      'none',
      'none',
      'plan',
      'exec',
    ]);
    const prompts = registry.prompts();
    expect(prompts.map((entry) => entry.name)).toEqual(TEN);
    for (const { name, prompt } of prompts) {
      expect(prompt.startsWith(`## ${name}`), name).toBe(true);
      expect(prompt, name).toContain(`Action: ${name}[{`);
    }
    expect(registry.get('Read')?.name).toBe('Read');
    expect(registry.get('Nope')).toBeUndefined();
    expect(registry.isReadOnly('Nope')).toBe(false);
  });

  it('turns a throwing tool into INTERNAL_ERROR and fills durationMs', async () => {
    const registry = new ToolRegistry().register(boom);
    const result = await runTool(registry, 'Boom', { n: 1 }, makeContext(project.root));
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('INTERNAL_ERROR');
    expect(result.error?.message).toContain('kaboom');
    expect(result.stats.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('names each bad field and what was expected', async () => {
    const registry = createDefaultRegistry();
    const ctx = makeContext(project.root);
    const missing = await runTool(registry, 'Read', { limit: 'ten' }, ctx);
    expect(missing.error?.code).toBe('INVALID_PARAM');
    expect(missing.error?.message).toContain('"path" is required');
    expect(missing.error?.message).toContain('"limit" must be number');
    const tooBig = await runTool(registry, 'Read', { path: 'a.txt', limit: 5000 }, ctx);
    expect(tooBig.error?.message).toMatch(/"limit" is too big/);
    const unknown = await runTool(registry, 'Read', { file_path: 'a.txt' }, ctx);
    expect(unknown.error?.message).toContain('unknown field "file_path"');
    expect(unknown.error?.message).toContain('Allowed fields: path, start_line, limit');
    const nested = await runTool(registry, 'MultiEdit', { path: 'a.txt', edits: [{ old_string: 'a' }] }, ctx);
    expect(nested.error?.message).toContain('"edits[0].new_string" is required');
    const enumError = await runTool(registry, 'TodoWrite', { todos: [{ content: 'x', status: 'doing' }] }, ctx);
    expect(enumError.error?.message).toContain('"todos[0].status" must be one of "pending"');
    const notObject = await runTool(registry, 'Read', 'a.txt', ctx);
    expect(notObject.error?.message).toContain('expected a JSON object');
  });

  it('lists the available tools for an unknown tool', async () => {
    const result = await runTool(createDefaultRegistry(), 'Cat', {}, makeContext(project.root));
    expect(result.error?.code).toBe('INVALID_PARAM');
    expect(result.error?.message).toContain('Unknown tool "Cat"');
    expect(result.error?.message).toContain(TEN.join(', '));
  });

  it('returns an interrupted error envelope when the signal is already aborted', async () => {
    const ctx = makeContext(project.root);
    ctx.controller.abort();
    const result = await runTool(createDefaultRegistry(), 'Read', { path: 'a.txt' }, ctx);
    expect(result.status).toBe('error');
    expect(result.data).toMatchObject({ interrupted: true });
  });

  it('refuses to register the same name twice', () => {
    const registry = new ToolRegistry().register(boom);
    expect(() => registry.register(boom)).toThrow(/already registered/);
  });

  it('runs a well-formed call with defaults applied', async () => {
    const echo = defineTool({
      name: 'Echo',
      promptFile: 'Read.md',
      inputSchema: z.strictObject({ word: z.string(), times: z.number().default(2) }),
      permission: 'none',
      async run(input) {
        return successEnvelope({ out: input.word.repeat(input.times) }, 'ok');
      },
    });
    const result = await runTool(new ToolRegistry().register(echo), 'Echo', { word: 'ab' }, makeContext(project.root));
    expect(result.data).toEqual({ out: 'abab' });
  });

  it('enforces the permission kind: a none tool cannot ask; the others ask stamped with their kind', async () => {
    const asking = (name: string, permission: 'none' | 'edit' | 'exec') =>
      defineTool({
        name,
        promptFile: 'Read.md',
        inputSchema: z.strictObject({}),
        permission,
        prepare: () =>
          Promise.resolve(
            readyPlan({ tool: name, title: `${name}()`, input: {} }, () =>
              Promise.resolve(successEnvelope({ approved: true }, 'yes')),
            ),
          ),
      });
    const registry = new ToolRegistry()
      .register(asking('Sneaky', 'none'))
      .register(asking('Change', 'edit'))
      .register(asking('Run', 'exec'));
    const ctx = makeContext(project.root);
    const sneaky = await runTool(registry, 'Sneaky', {}, ctx);
    expect(sneaky.error?.code).toBe('PERMISSION_DENIED');
    expect(sneaky.error?.message).toContain('Sneaky declares no permission and may not ask for one');
    expect((await runTool(registry, 'Change', {}, ctx)).data).toEqual({ approved: true });
    expect((await runTool(registry, 'Run', {}, ctx)).data).toEqual({ approved: true });
    expect(ctx.requests.map((request) => [request.tool, request.kind])).toEqual([
      ['Change', 'edit'],
      ['Run', 'exec'],
    ]);
  });

  it('loads a lazy input schema on the first call only, never to describe the tools', async () => {
    const schema = z.strictObject({ word: z.string() });
    let loads = 0;
    const lazy = defineTool({
      name: 'Lazy',
      promptFile: 'Read.md',
      inputSchema: {
        jsonSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
        load: () => {
          loads += 1;
          return Promise.resolve(schema);
        },
      },
      permission: 'none',
      async run(input) {
        return successEnvelope({ word: input.word }, input.word);
      },
    });
    const registry = new ToolRegistry().register(lazy);
    expect(registry.toolSpecs()[0]?.inputSchema).toEqual(lazy.input.jsonSchema);
    expect(registry.prompts()).toHaveLength(1);
    expect(loads).toBe(0);
    const ctx = makeContext(project.root);
    expect(await runTool(registry, 'Lazy', [], ctx)).toMatchObject({
      status: 'error',
      error: { code: 'INVALID_PARAM' },
    });
    expect(loads).toBe(0);
    expect((await runTool(registry, 'Lazy', { word: 'hi' }, ctx)).data).toEqual({ word: 'hi' });
    expect(loads).toBe(1);
    const bad = await runTool(registry, 'Lazy', { word: 1 }, ctx);
    expect(bad.error?.message).toBe('Invalid input for Lazy: "word" must be string, got number.');
  });

  it('a schema that fails to load is one INTERNAL_ERROR envelope, not a throw, and the tool never runs', async () => {
    let ran = false;
    const broken = defineTool({
      name: 'Broken',
      promptFile: 'Read.md',
      inputSchema: {
        jsonSchema: { type: 'object', properties: {} },
        load: () => Promise.reject(new Error('chunk input-schemas.js is missing')),
      },
      permission: 'none',
      async run() {
        ran = true;
        return successEnvelope({}, 'ran');
      },
    });
    const result = await runTool(new ToolRegistry().register(broken), 'Broken', {}, makeContext(project.root));
    expect(result).toMatchObject({
      status: 'error',
      error: { code: 'INTERNAL_ERROR', message: 'Broken could not check its input: chunk input-schemas.js is missing' },
    });
    expect(ran).toBe(false);
  });

  it("warm() loads every schema and each tool's libraries once, and a failing load does not reject it", async () => {
    const loaded: string[] = [];
    const tool = (name: string, preload: () => Promise<unknown>) =>
      defineTool({
        name,
        promptFile: 'Read.md',
        inputSchema: {
          jsonSchema: { type: 'object', properties: {} },
          load: () => {
            loaded.push(`${name} schema`);
            return Promise.resolve(z.strictObject({}));
          },
        },
        permission: 'none',
        preload,
        async run() {
          return successEnvelope({}, name);
        },
      });
    const registry = new ToolRegistry()
      .register(tool('Fine', () => Promise.resolve(loaded.push('Fine library'))))
      .register(tool('Failing', () => Promise.reject(new Error('chunk missing'))));
    await expect(registry.warm()).resolves.toBeUndefined();
    await registry.warm();
    expect(loaded.sort()).toEqual(['Failing schema', 'Fine library', 'Fine schema']);
    // The tool whose library failed to warm still runs: its own call reports what it needs.
    expect((await runTool(registry, 'Failing', {}, makeContext(project.root))).text).toBe('Failing');
  });
});
