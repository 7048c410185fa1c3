import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/grep/grep.js';
import { findRipgrep } from '../../src/tools/grep/grep-ripgrep.js';
import { ToolRegistry } from '../../src/tools/registry/registry.js';
import type { GrepData } from '../../src/tools/registry/tool-data.js';
import { runsWith } from '../helpers/optional-tools.js';
import { dataOf, makeContext, makeProject, type TestProject, runTool } from './helpers.js';

const withRipgrep = runsWith('ripgrep (rg)', findRipgrep() !== undefined, 'the two Grep tests that need ripgrep');

let project: TestProject;
const rg = new ToolRegistry().register(createGrepTool({ engine: 'ripgrep' }));
const js = new ToolRegistry().register(createGrepTool({ engine: 'js' }));
const auto = new ToolRegistry().register(createGrepTool());

const many = Array.from({ length: 250 }, (_, index) => `needle ${index}`).join('\n') + '\n';

beforeAll(async () => {
  project = await makeProject({
    'src/app.ts': 'import x from "y";\nconst Needle = 1;\n  const needle = 2; // indented\n',
    'src/util/helpers.ts': 'export function needle() {}\n',
    'src/win.ts': 'line one\r\nneedle crlf\r\n',
    'src/long.ts': `needle ${'x'.repeat(1000)}\n`,
    'dir with space/ü file.txt': 'needle unicode\n',
    'ignored/x.ts': 'needle ignored\n',
    'build.log': 'needle log\n',
    'src/.gitignore': 'generated.ts\n',
    'src/generated.ts': 'needle generated\n',
    '.gitignore': 'ignored/\n*.log\n',
    '.hidden/h.ts': 'needle hidden\n',
    'node_modules/pkg/index.js': 'needle module\n',
    'image.bin': Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2, 3]), Buffer.from('\nneedle\n')]),
    'many/m.txt': many,
    'bom.txt': '\ufeffneedle bom\n',
  });
});
afterAll(() => project.cleanup());
afterEach(() => {
  delete process.env.MCA_GREP_ENGINE;
});

async function both(input: Record<string, unknown>) {
  const ctx = makeContext(project.root);
  const [withRg, withJs] = await Promise.all([runTool(rg, 'Grep', input, ctx), runTool(js, 'Grep', input, ctx)]);
  return { withRg, withJs };
}

function withoutEngine(data: unknown): Omit<GrepData, 'engine'> {
  const { engine: _engine, ...rest } = data as GrepData;
  return rest;
}

describe('Grep', () => {
  it.runIf(withRipgrep)('uses ripgrep when it is installed (`apt-get install -y ripgrep`)', async () => {
    expect(findRipgrep(), 'ripgrep (rg) is not on PATH; install it (apt-get install -y ripgrep)').toBeDefined();
    const result = await runTool(auto, 'Grep', { pattern: 'needle', path: 'src/util' }, makeContext(project.root));
    expect(result.data).toMatchObject({ engine: 'ripgrep', total: 1 });
  });

  it.runIf(withRipgrep)('gives identical matches with ripgrep and the JS engine on the same tree', async () => {
    const { withRg, withJs } = await both({ pattern: 'needle', path: '.' });
    expect(withRg.data).toMatchObject({ engine: 'ripgrep' });
    expect(withJs.data).toMatchObject({ engine: 'js' });
    expect(withoutEngine(withJs.data)).toEqual(withoutEngine(withRg.data));
    expect(withRg.status).toBe('partial');
    const data = dataOf<GrepData>(withRg);
    const files = [...new Set(data.matches.map((match) => match.file))];
    expect(files).toEqual(['bom.txt', 'dir with space/ü file.txt', 'many/m.txt']);
  });

  it('finds matches case-insensitively by default, sorted by file then line, text trimmed', async () => {
    const { withRg, withJs } = await both({ pattern: 'needle', path: 'src' });
    expect(withoutEngine(withJs.data)).toEqual(withoutEngine(withRg.data));
    const data = dataOf<GrepData>(withRg);
    expect(withRg.status).toBe('success');
    expect(data.matches.map((match) => `${match.file}:${match.line}`)).toEqual([
      'src/app.ts:2',
      'src/app.ts:3',
      'src/long.ts:1',
      'src/util/helpers.ts:1',
      'src/win.ts:2',
    ]);
    expect(data.matches[1]?.text).toBe('const needle = 2; // indented');
    expect(data.matches[4]?.text).toBe('needle crlf');
    expect(data.matches[2]?.text.length).toBeLessThanOrEqual(301);
  });

  it('honours .gitignore (nested too), skips hidden, binary and node_modules files', async () => {
    const { withRg, withJs } = await both({ pattern: 'needle (ignored|log|generated|hidden|module)' });
    expect(dataOf<GrepData>(withRg).total).toBe(0);
    expect(dataOf<GrepData>(withJs).total).toBe(0);
    const binary = await both({ pattern: 'needle', path: '.', include: '*.bin' });
    expect(dataOf<GrepData>(binary.withRg).total).toBe(0);
    expect(dataOf<GrepData>(binary.withJs).total).toBe(0);
  });

  it('respects case_sensitive and include, the same way in both engines', async () => {
    const sensitive = await both({ pattern: 'Needle', case_sensitive: true });
    expect(dataOf<GrepData>(sensitive.withRg).matches).toEqual([
      { file: 'src/app.ts', line: 2, text: 'const Needle = 1;' },
    ]);
    expect(withoutEngine(sensitive.withJs.data)).toEqual(withoutEngine(sensitive.withRg.data));
    const included = await both({ pattern: 'needle', include: '*.{txt,md}' });
    expect(withoutEngine(included.withJs.data)).toEqual(withoutEngine(included.withRg.data));
    expect(dataOf<GrepData>(included.withRg).total).toBe(252);
  });

  it('searches a single file, including one with spaces and unicode in its path', async () => {
    const { withRg, withJs } = await both({ pattern: 'unicode', path: 'dir with space/ü file.txt' });
    expect(dataOf<GrepData>(withRg).matches).toEqual([
      { file: 'dir with space/ü file.txt', line: 1, text: 'needle unicode' },
    ]);
    expect(withoutEngine(withJs.data)).toEqual(withoutEngine(withRg.data));
  });

  it('caps at 200 matches: partial, truncated, the first 200 in order and the full total', async () => {
    const { withRg, withJs } = await both({ pattern: 'needle \\d+', path: 'many' });
    for (const result of [withRg, withJs]) {
      const data = dataOf<GrepData>(result);
      expect(result.status).toBe('partial');
      expect(data).toMatchObject({ total: 250, truncated: true });
      expect(data.matches).toHaveLength(200);
      expect(data.matches[199]).toEqual({ file: 'many/m.txt', line: 200, text: 'needle 199' });
    }
  });

  it('returns exactly 200 matches as success, not truncated', async () => {
    const { withRg, withJs } = await both({ pattern: '^needle 1?\\d?\\d$', path: 'many' });
    for (const result of [withRg, withJs]) {
      expect(result.status).toBe('success');
      expect(result.data).toMatchObject({ total: 200, truncated: false });
    }
  });

  it('reports an invalid regex as INVALID_PARAM in both engines', async () => {
    const { withRg, withJs } = await both({ pattern: 'foo(' });
    expect(withRg.error?.code).toBe('INVALID_PARAM');
    expect(withJs.error?.code).toBe('INVALID_PARAM');
  });

  it('returns NOT_FOUND for a missing path and ACCESS_DENIED outside the project', async () => {
    const ctx = makeContext(project.root);
    expect((await runTool(auto, 'Grep', { pattern: 'x', path: 'missing' }, ctx)).error?.code).toBe('NOT_FOUND');
    expect((await runTool(auto, 'Grep', { pattern: 'x', path: '../' }, ctx)).error?.code).toBe('ACCESS_DENIED');
  });

  it('can be forced to the JS engine with MCA_GREP_ENGINE=js', async () => {
    process.env.MCA_GREP_ENGINE = 'js';
    const result = await runTool(auto, 'Grep', { pattern: 'needle', path: 'src/util' }, makeContext(project.root));
    expect(result.data).toMatchObject({ engine: 'js', total: 1 });
  });

  it('searches a directory that is itself gitignored when named explicitly, in both engines', async () => {
    const { withRg, withJs } = await both({ pattern: 'needle', path: 'ignored' });
    expect(dataOf<GrepData>(withRg).matches).toEqual([{ file: 'ignored/x.ts', line: 1, text: 'needle ignored' }]);
    expect(withoutEngine(withJs.data)).toEqual(withoutEngine(withRg.data));
  });

  it.runIf(withRipgrep)(
    'ripgrep stops at 50,000 scanned matches, and a search interrupted mid-run ends promptly as interrupted',
    async () => {
      const huge = await makeProject({
        'a.txt': 'needle\n'.repeat(40_000),
        'b.txt': 'needle\n'.repeat(40_000),
      });
      try {
        const full = await runTool(rg, 'Grep', { pattern: 'needle' }, makeContext(huge.root));
        expect(full.data).toMatchObject({ engine: 'ripgrep', truncated: true });
        expect((full.data as unknown as GrepData).total).toBeLessThanOrEqual(50_000);
        expect((full.data as unknown as GrepData).matches).toHaveLength(200);

        const ctx = makeContext(huge.root);
        const running = runTool(rg, 'Grep', { pattern: 'needle' }, ctx);
        ctx.controller.abort();
        const stopped = await running;
        expect(stopped.status).toBe('error');
        expect(stopped.text).toContain('interrupted');
      } finally {
        await huge.cleanup();
      }
    },
  );
});
