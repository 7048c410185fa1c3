import { stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, type TestContext, type TestProject, runTool } from './helpers.js';

let project: TestProject;
let ctx: TestContext;
const registry = createDefaultRegistry();
const run = (tool: string, input: Record<string, unknown>) => runTool(registry, tool, input, ctx);
const ORIGINAL = 'import a from "./a";\nlet count = 0;\ncount += 1;\nexport { count };\n';

beforeEach(async () => {
  project = await makeProject({ 'src/m.ts': ORIGINAL });
  ctx = makeContext(project.root);
});
afterEach(() => project.cleanup());

describe('MultiEdit', () => {
  it('applies edits in order, each to the result of the previous, with one approval', async () => {
    await run('Read', { path: 'src/m.ts' });
    const result = await run('MultiEdit', {
      path: 'src/m.ts',
      edits: [
        { old_string: '"./a"', new_string: '"./a.js"' },
        { old_string: 'count', new_string: 'total', replace_all: true },
        { old_string: 'let total = 0;', new_string: 'let total = 10;' },
      ],
    });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ path: 'src/m.ts', applied: true, edits: 3, replacements: 5 });
    expect(await project.read('src/m.ts')).toBe(
      'import a from "./a.js";\nlet total = 10;\ntotal += 1;\nexport { total };\n',
    );
    expect(ctx.requests).toHaveLength(1);
    expect(ctx.requests[0]?.tool).toBe('MultiEdit');
  });

  it('is all or nothing: a failing edit leaves the file untouched and names its index', async () => {
    await run('Read', { path: 'src/m.ts' });
    const before = await stat(project.path('src/m.ts'));
    const result = await run('MultiEdit', {
      path: 'src/m.ts',
      edits: [
        { old_string: '"./a"', new_string: '"./b"' },
        { old_string: 'does not exist', new_string: 'x' },
      ],
    });
    expect(result.error?.code).toBe('INVALID_PARAM');
    expect(result.error?.message).toContain('edits[1]');
    expect(await project.read('src/m.ts')).toBe(ORIGINAL);
    expect((await stat(project.path('src/m.ts'))).mtimeMs).toBe(before.mtimeMs);
    expect(ctx.requests).toHaveLength(0);
  });

  it('requires a prior Read, rejects an empty edit list and more than 50 edits', async () => {
    expect(
      (await run('MultiEdit', { path: 'src/m.ts', edits: [{ old_string: 'a', new_string: 'b' }] })).error?.code,
    ).toBe('CONFLICT');
    expect((await run('MultiEdit', { path: 'src/m.ts', edits: [] })).error?.code).toBe('INVALID_PARAM');
    const tooMany = Array.from({ length: 51 }, () => ({ old_string: 'a', new_string: 'b' }));
    expect((await run('MultiEdit', { path: 'src/m.ts', edits: tooMany })).error?.code).toBe('INVALID_PARAM');
  });

  it('returns PERMISSION_DENIED when declined', async () => {
    ctx = makeContext(project.root, async () => ({ approved: false, reason: 'no' }));
    await run('Read', { path: 'src/m.ts' });
    const result = await run('MultiEdit', {
      path: 'src/m.ts',
      edits: [{ old_string: 'count', new_string: 'n', replace_all: true }],
    });
    expect(result.error?.code).toBe('PERMISSION_DENIED');
    expect(await project.read('src/m.ts')).toBe(ORIGINAL);
  });
});
