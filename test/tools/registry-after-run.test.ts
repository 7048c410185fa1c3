/** The registry's afterRun step (PostToolUse hooks plug in here): when it is called, with what, and what it changes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/tools/registry/define-tool.js';
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, type TestProject } from './helpers.js';

let project: TestProject;
beforeEach(async () => {
  project = await makeProject({ 'a.txt': 'hello-secret-value\n' });
});
afterEach(() => project.cleanup());

function recordingContext(decide?: ReturnType<typeof makeContext>['gate']['decide']) {
  const seen: Array<{ call: ToolCall; envelope: ToolEnvelope }> = [];
  const ctx = makeContext(project.root);
  return {
    seen,
    ctx: {
      ...ctx,
      gate: {
        decide: decide ?? ctx.gate.decide,
        afterRun: async (call: ToolCall, envelope: ToolEnvelope) => {
          seen.push({ call, envelope });
          return { ...envelope, text: `${envelope.text}\n[after]` };
        },
      },
    },
  };
}

describe('afterRun', () => {
  it('sees each call that ran, with the input it ran with, and its answer is what the caller gets', async () => {
    const registry = createDefaultRegistry({ secrets: ['hello-secret-value'] });
    const { seen, ctx } = recordingContext();
    const read = await registry.run({ id: 'toolu_a', name: 'Read', input: { path: 'a.txt' }, source: 'model' }, ctx);
    expect(read.text.endsWith('\n[after]')).toBe(true);
    expect(seen[0]?.call).toEqual({
      id: 'toolu_a',
      name: 'Read',
      input: { path: 'a.txt', start_line: 1, limit: 500 },
      source: 'model',
    });
    // What it is handed is already redacted.
    expect(JSON.stringify(seen[0]?.envelope)).not.toContain('hello-secret-value');
    const missing = await registry.run(
      { id: 'toolu_b', name: 'Read', input: { path: 'no.txt' }, source: 'model' },
      ctx,
    );
    expect(missing.status).toBe('error');
    expect(seen.map((entry) => entry.call.id)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('is not called for a denied call or invalid input; an updated input is what it sees', async () => {
    const registry = createDefaultRegistry();
    const denied = recordingContext(async () => ({ behavior: 'deny', message: 'no' }));
    await registry.run({ id: 't1', name: 'LS', input: { path: '.' }, source: 'model' }, denied.ctx);
    await registry.run({ id: 't2', name: 'LS', input: { bogus: 1 }, source: 'model' }, denied.ctx);
    expect(denied.seen).toEqual([]);
    const rewritten = recordingContext(async () => ({ behavior: 'allow', updatedInput: { path: 'a.txt', limit: 1 } }));
    await registry.run({ id: 't3', name: 'Read', input: { path: 'other.txt' }, source: 'model' }, rewritten.ctx);
    expect(rewritten.seen[0]?.call.input).toEqual({ path: 'a.txt', start_line: 1, limit: 1 });
  });
});
