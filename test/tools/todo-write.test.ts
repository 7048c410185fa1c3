import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const todo = (input: unknown) => runTool(registry, 'TodoWrite', input, ctx);

beforeEach(async () => {
  project = await makeProject();
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('TodoWrite', () => {
  it('stores the list in ctx.todos and returns it with the recap', async () => {
    const todos = [
      { content: 'parse flags', status: 'completed' },
      { content: 'write the parser', status: 'in_progress' },
      { content: 'docs', status: 'pending' },
      { content: 'old idea', status: 'cancelled' },
    ];
    const result = await todo({ todos });
    expect(result.status).toBe('success');
    expect(result.data).toEqual({ todos, recap: '[1/3] done · now: write the parser' });
    expect(ctx.todos.list()).toEqual(todos);
    expect(ctx.requests).toHaveLength(0);
  });

  it('replaces the whole list on each call, and accepts an empty list', async () => {
    await todo({ todos: [{ content: 'a', status: 'pending' }] });
    await todo({ todos: [{ content: 'b', status: 'completed' }] });
    expect(ctx.todos.list()).toEqual([{ content: 'b', status: 'completed' }]);
    const cleared = await todo({ todos: [] });
    expect(cleared.status).toBe('success');
    expect(ctx.todos.list()).toEqual([]);
  });

  it('rejects two in_progress items, empty content and unknown statuses, keeping the old list', async () => {
    await todo({ todos: [{ content: 'keep', status: 'pending' }] });
    const two = await todo({
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    });
    expect(two.error?.code).toBe('INVALID_PARAM');
    expect(two.error?.message).toContain('Only one todo may be in_progress');
    const empty = await todo({ todos: [{ content: '   ', status: 'pending' }] });
    expect(empty.error?.code).toBe('INVALID_PARAM');
    expect(empty.error?.message).toContain('todos[0].content');
    expect((await todo({ todos: [{ content: 'x', status: 'done' }] })).error?.code).toBe('INVALID_PARAM');
    expect(ctx.todos.list()).toEqual([{ content: 'keep', status: 'pending' }]);
  });
});
