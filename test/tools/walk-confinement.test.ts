/**
 * Issue 23, classes 1, 6 and 8 at the tool level: what Grep (both engines), Glob and LS return when the pattern,
 * the repository or the permission rules try to take them outside the project, and the TIMEOUT the model gets
 * when a pattern never finishes. The built-binary versions are in test/reliability/walks.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRule } from '../../src/permissions/rule.js';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { globTool } from '../../src/tools/walking/glob.js';
import { createGrepTool } from '../../src/tools/grep/grep.js';
import { findRipgrep } from '../../src/tools/grep/grep-ripgrep.js';
import { lsTool } from '../../src/tools/walking/ls.js';
import { ToolRegistry } from '../../src/tools/registry/registry.js';
import type { ToolEnvelope } from '../../src/tools/registry/envelope.js';
import { makeContext, makeProject, runTool, type TestContext, type TestProject } from './helpers.js';

const SECRET = 'OUTSIDE-PRIVATE-KEY-4d1e';
const ENV_SECRET = 'DOTENV-SECRET-9a7b';
const hasRg = findRipgrep() !== undefined;

let project: TestProject;
let outside: string;
const registry = new ToolRegistry()
  .register(createGrepTool({ engine: 'js' }))
  .register(globTool)
  .register(lsTool);
const rgRegistry = new ToolRegistry().register(createGrepTool({ engine: 'ripgrep' }));
const engines = hasRg
  ? ([
      ['js', registry],
      ['ripgrep', rgRegistry],
    ] as const)
  : ([['js', registry]] as const);

beforeAll(async () => {
  project = await makeProject({
    'src/a.ts': 'export const needle = 1;\n',
    '.env': `TOKEN=${ENV_SECRET}\n`,
    'config/.env.local': `TOKEN=${ENV_SECRET}-local\n`,
    'secrets/prod.key': `${ENV_SECRET}-prod\n`,
    '.gitignore': '.env\n',
  });
  outside = join(project.root, '..', `${project.root.split('/').pop()}-outside`);
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(outside, 'id_rsa'), `${SECRET}\n`);
  writeFileSync(join(outside, 'deep', 'id_rsa'), `${SECRET}\n`);
  // What a hostile repository ships: links to a directory and a file outside, and one climbing out from deeper.
  symlinkSync(outside, join(project.root, 'vendor'));
  symlinkSync(join(outside, 'id_rsa'), join(project.root, 'key.txt'));
  symlinkSync('../..', join(project.root, 'src', 'up'));
  execFileSync('mkfifo', [join(project.root, 'pipe')]);
});
afterAll(async () => {
  await project.cleanup();
  execFileSync('rm', ['-rf', outside]);
});
afterEach(() => {
  delete process.env.MCA_TOOL_DEADLINE_MS;
});

function seen(result: ToolEnvelope): string {
  return JSON.stringify(result);
}

function withRules(ctx: TestContext, ...texts: string[]): TestContext {
  const rules = texts.map((text) => {
    const parsed = parseRule(text, 'deny', 'test');
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  });
  const policy = new PermissionPolicy(rules, { projectRoot: project.root });
  return { ...ctx, pathScreen: (tool) => policy.pathScreen(tool) };
}

describe('class 1: walks never leave the project', () => {
  const climbing = [
    '../*',
    '../**/id_rsa',
    '/etc/passwd',
    `${'/'}tmp/**`,
    '.{.,}/**',
    '\\.\\./*',
    'src/../../*',
    '~/.ssh/*',
  ];
  for (const include of climbing) {
    it(`Grep include ${include} is refused with INVALID_PARAM`, async () => {
      for (const [, engine] of engines) {
        const result = await runTool(engine, 'Grep', { pattern: '.', include }, makeContext(project.root));
        expect(result.error?.code).toBe('INVALID_PARAM');
        expect(result.error?.message).toContain('must be relative to "path" and must not contain ".."');
        expect(seen(result)).not.toContain(SECRET);
      }
    });
    it(`Glob pattern ${include} is refused with INVALID_PARAM`, async () => {
      const result = await runTool(registry, 'Glob', { pattern: include }, makeContext(project.root));
      expect(result.error?.code).toBe('INVALID_PARAM');
      expect(result.data).not.toHaveProperty('files');
    });
  }

  const throughLinks = [
    'vendor/*',
    'vendor/**',
    'vendor/deep/id_rsa',
    '**/id_rsa',
    'key.txt',
    '*.txt',
    'src/up/**/id_rsa',
  ];
  for (const include of throughLinks) {
    it(`Grep include ${include} does not search through a symlink to outside (both engines)`, async () => {
      for (const [name, engine] of engines) {
        const result = await runTool(engine, 'Grep', { pattern: 'PRIVATE', include }, makeContext(project.root));
        expect(result.status, name).toBe('success');
        expect(seen(result), name).not.toContain(SECRET);
        expect(result.data, name).toMatchObject({ total: 0 });
      }
    });
    it(`Glob ${include} lists nothing through a symlink to outside`, async () => {
      const result = await runTool(registry, 'Glob', { pattern: include }, makeContext(project.root));
      expect(result.status).toBe('success');
      expect(result.data).toMatchObject({ total: 0, files: [] });
    });
  }

  it('Grep, Glob and LS refuse a path that resolves through a link to outside', async () => {
    const ctx = makeContext(project.root);
    for (const [tool, input] of [
      ['Grep', { pattern: 'x', path: 'vendor' }],
      ['Grep', { pattern: 'x', path: 'src/up' }],
      ['Glob', { pattern: '*', path: 'vendor' }],
      ['LS', { path: 'vendor/deep' }],
    ] as const) {
      const result = await runTool(registry, tool, input, ctx);
      expect(result.error?.code, `${tool} ${JSON.stringify(input)}`).toBe('ACCESS_DENIED');
    }
  });

  it('Grep refuses a FIFO as its path and skips one met while walking (both engines)', async () => {
    for (const [name, engine] of engines) {
      const direct = await runTool(engine, 'Grep', { pattern: 'x', path: 'pipe' }, makeContext(project.root));
      expect(direct.error?.code, name).toBe('INVALID_PARAM');
      expect(direct.error?.message, name).toContain('not a regular file');
      const walked = await runTool(engine, 'Grep', { pattern: 'needle', include: 'pipe*' }, makeContext(project.root));
      expect(walked.status, name).toBe('success');
    }
  });
});

describe('class 6: deny rules hold for every file a walk opens or lists', () => {
  const denied = ['Read(./.env)', 'Read(.env.*)', 'Read(secrets/**)'];
  const includes = ['.env', '.*', '**/.env*', '*.key', '*'];
  for (const include of includes) {
    it(`Grep include ${include} never returns a denied file (both engines)`, async () => {
      for (const [name, engine] of engines) {
        const ctx = withRules(makeContext(project.root), ...denied);
        const result = await runTool(engine, 'Grep', { pattern: 'TOKEN|SECRET', include }, ctx);
        expect(seen(result), `${name} ${include}`).not.toContain(ENV_SECRET);
      }
    });
  }

  it("without the rules: a .gitignore'd .env is skipped by both engines, .env.local is found (the test can fail)", async () => {
    for (const [name, engine] of engines) {
      const result = await runTool(engine, 'Grep', { pattern: 'TOKEN', include: '.env' }, makeContext(project.root));
      expect(seen(result), name).not.toContain(ENV_SECRET);
      const dotted = await runTool(
        engine,
        'Grep',
        { pattern: 'TOKEN', include: '.env.local' },
        makeContext(project.root),
      );
      expect(seen(dotted), name).toContain(ENV_SECRET);
    }
  });

  it('Grep says how many files the rules left out', async () => {
    const ctx = withRules(makeContext(project.root), ...denied);
    const result = await runTool(registry, 'Grep', { pattern: 'TOKEN', include: '.env.local' }, ctx);
    expect(result.text).toContain('1 file left out: covered by a deny or ask permission rule');
  });

  it('Glob and LS leave denied names out of their listings', async () => {
    const ctx = withRules(makeContext(project.root), ...denied);
    const glob = await runTool(registry, 'Glob', { pattern: '**/*' }, ctx);
    expect(seen(glob)).not.toMatch(/\.env|prod\.key/);
    expect(glob.text).toContain('left out');
    const ls = await runTool(registry, 'LS', { path: '.', include_hidden: true }, ctx);
    expect(ls.text).not.toContain('.env');
    expect(ls.text).toContain('2 entries left out'); // .env and secrets/
    const config = await runTool(registry, 'LS', { path: 'config', include_hidden: true }, ctx);
    expect(config.text).not.toContain('.env.local');
  });

  it('a symlink inside the project to a denied file is withheld too', async () => {
    symlinkSync('.env', join(project.root, 'innocent'));
    try {
      for (const [name, engine] of engines) {
        const ctx = withRules(makeContext(project.root), 'Read(./.env)');
        const result = await runTool(engine, 'Grep', { pattern: 'TOKEN', path: '.', include: 'innocent' }, ctx);
        expect(seen(result), name).not.toContain(ENV_SECRET);
      }
    } finally {
      execFileSync('rm', [join(project.root, 'innocent')]);
    }
  });
});

describe('class 8: a pattern that never finishes is stopped', () => {
  it('the JS Grep stops (a+)+$ at the deadline with TIMEOUT, and the main thread stays free', async () => {
    process.env.MCA_TOOL_DEADLINE_MS = '800';
    await project.write('redos/line.txt', `${'a'.repeat(40)}!\n`);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 50);
    const result = await runTool(registry, 'Grep', { pattern: '(a+)+$', path: 'redos' }, makeContext(project.root));
    clearInterval(ticker);
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toContain('Grep was stopped after 800 ms');
    expect(ticks).toBeGreaterThan(3);
  });

  it('nested quantifier variants time out too: (a|aa)*$, (.*a){20}, ([a-z]+)*x', async () => {
    process.env.MCA_TOOL_DEADLINE_MS = '600';
    for (const pattern of ['^(a|aa)*$', '(.*a){25}', '^([a-z]+)*x$']) {
      const result = await runTool(registry, 'Grep', { pattern, path: 'redos' }, makeContext(project.root));
      expect(result.error?.code, pattern).toBe('TIMEOUT');
    }
  });

  it('Ctrl-C (the abort signal) ends a stuck JS Grep at once as interrupted', async () => {
    process.env.MCA_TOOL_DEADLINE_MS = '60000';
    const ctx = makeContext(project.root);
    setTimeout(() => ctx.controller.abort(), 300);
    const result = await runTool(registry, 'Grep', { pattern: '(a+)+$', path: 'redos' }, ctx);
    expect(result.error?.code).toBe('EXECUTION_ERROR');
    expect(result.data).toMatchObject({ interrupted: true });
  });

  it('a many-star Glob on a long name is stopped at the deadline with TIMEOUT', async () => {
    process.env.MCA_TOOL_DEADLINE_MS = '800';
    await project.write(`stars/${'a'.repeat(120)}`, 'x');
    const result = await runTool(registry, 'Glob', { pattern: `stars/${'*a'.repeat(12)}b` }, makeContext(project.root));
    expect(result.error?.code).toBe('TIMEOUT');
  });

  it('a search after a stopped one works (the worker is replaced)', async () => {
    const result = await runTool(registry, 'Grep', { pattern: 'needle', path: 'src' }, makeContext(project.root));
    expect(result.data).toMatchObject({ total: 1 });
  });
});

describe('patterns that expand without end are refused before any walk', () => {
  for (const pattern of ['{a,b}'.repeat(24), '{1..100000}', `${'{a,b,c,d}'.repeat(7)}.ts`, '{a..z}{a..z}{a..z}']) {
    it(`Glob and Grep include ${pattern.slice(0, 24)}…`, async () => {
      const glob = await runTool(registry, 'Glob', { pattern }, makeContext(project.root));
      expect(glob.error?.code).toBe('INVALID_PARAM');
      expect(glob.error?.message).toContain('expands to about');
      const grep = await runTool(registry, 'Grep', { pattern: 'x', include: pattern }, makeContext(project.root));
      expect(grep.error?.code).toBe('INVALID_PARAM');
    });
  }

  it('ordinary braces and ranges still work: *.{ts,tsx}, f{1..3}.txt', async () => {
    await project.write('ranges/f2.txt', 'needle\n');
    const glob = await runTool(registry, 'Glob', { pattern: 'ranges/f{1..3}.txt' }, makeContext(project.root));
    expect(glob.data).toMatchObject({ files: ['ranges/f2.txt'] });
    const grep = await runTool(
      registry,
      'Grep',
      { pattern: 'needle', include: '*.{ts,tsx}' },
      makeContext(project.root),
    );
    expect(grep.data).toMatchObject({ total: 1 });
  });
});
