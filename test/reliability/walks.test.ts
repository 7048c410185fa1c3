/**
 * Issue 23, classes 1, 6, 8 and 9 through the built binary: a repository someone else wrote and a model steered by
 * it call Grep (the ripgrep path and the JS fallback, MCA_GREP_ENGINE=js), Glob and LS with patterns that climb
 * out, symlinks the repository ships, `include` globs that name files a deny rule protects, patterns that never
 * finish, and a huge one-line file. Each case asserts what the model received in its next request, that nothing
 * from outside the project (a private key beside it) reached the model, and how the run ended.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { findRipgrep } from '../../src/tools/grep/grep-ripgrep.js';
import { act, collect, finish, makeSandbox, runMca, spawnMca, type RunResult, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const log = new ResultLog('walks');
const order: string[] = [];
const SECRET = 'PRIVATE-KEY-MATERIAL-77be01';
const DOTENV = 'DOTENV-TOKEN-5c2a90';
const hasRg = findRipgrep() !== undefined;
const ENGINES = hasRg ? (['js', 'ripgrep'] as const) : (['js'] as const);

interface Env {
  sandbox: Sandbox;
  server: FakeAnthropic;
  /** The directory above the project: holds id_rsa with SECRET (stands in for ~/.ssh). */
  outside: string;
}

/** A project shipping a symlink to its parent (vendor), one to the key (key.txt), one climbing from deeper. */
async function setUp(script: FakeStep[]): Promise<Env> {
  const sandbox = await makeSandbox('mca-walks');
  const outside = join(sandbox.project, '..');
  writeFileSync(join(outside, 'id_rsa'), `${SECRET}\n`);
  const { project } = sandbox;
  mkdirSync(join(project, 'src', 'deep'), { recursive: true });
  writeFileSync(join(project, 'src', 'a.ts'), 'export const needle = 1;\n');
  writeFileSync(join(project, '.env'), `TOKEN=${DOTENV}\n`);
  mkdirSync(join(project, 'config'));
  writeFileSync(join(project, 'config', '.env.production'), `TOKEN=${DOTENV}-production\n`);
  writeFileSync(join(project, '.gitignore'), '.env\n');
  symlinkSync('..', join(project, 'vendor'));
  symlinkSync('../id_rsa', join(project, 'key.txt'));
  symlinkSync('../../..', join(project, 'src', 'deep', 'up'));
  return { sandbox, server: await startFakeAnthropic(script), outside };
}

/** What the model was sent after the tool ran: the request carrying the observation. */
function observation(env: Env): string {
  return JSON.stringify(env.server.requests[1]?.body ?? '');
}

function everythingSent(env: Env): string {
  return env.server.requests.map((request) => JSON.stringify(request.body)).join('\n');
}

/** The issue-23 class the cases declared next belong to (RELIABILITY.md sums attempts and held per class). */
let walkClass = 'walk escapes the root';

function attack(fault: string, check: (env: Env) => Promise<string>, script?: FakeStep[], timeout = 60_000): void {
  order.push(fault);
  const group = walkClass;
  it(fault, { timeout }, async () => {
    const env = await setUp(script ?? []);
    try {
      await log.track(group, fault, () => check(env));
    } finally {
      await env.server.close();
      await env.sandbox.cleanup();
    }
  });
}

async function runTool(
  env: Env,
  tool: string,
  input: Record<string, unknown>,
  options: { engine?: string; args?: string[]; envVars?: Record<string, string> } = {},
): Promise<RunResult> {
  env.server.setScript([act(tool, input), finish('done')]);
  const extra = { ...(options.engine ? { MCA_GREP_ENGINE: options.engine } : {}), ...options.envVars };
  const result = await runMca(env.sandbox, [...(options.args ?? []), '-p', 'look around'], {
    baseUrl: env.server.url,
    env: extra,
    timeoutMs: 30_000,
  });
  expect(result.code, result.stderr).toBe(0);
  expect(env.server.requests).toHaveLength(2);
  expect(everythingSent(env)).not.toContain(SECRET);
  return result;
}

describe.concurrent('walking tools stay inside the project (issue 23)', () => {
  afterAll(() => log.write(order));

  // --- class 1: walks escape the root ------------------------------------------------------------------------------
  const climbing = ['../*', '../**/id_rsa', '.{.,}/*', '\\.\\./id_rsa', 'src/../../*'];
  for (const engine of ENGINES) {
    for (const include of climbing) {
      attack(`Grep include ${include} (${engine})`, async (env) => {
        await runTool(env, 'Grep', { pattern: 'PRIVATE', include }, { engine });
        expect(observation(env)).toContain('INVALID_PARAM');
        expect(observation(env)).toContain('must not contain');
        return `INVALID_PARAM before any file is opened; the key beside the project never reached the model`;
      });
    }
    attack(`Grep include <absolute path of the parent>/* (${engine})`, async (env) => {
      await runTool(env, 'Grep', { pattern: 'PRIVATE', include: `${env.outside}/*` }, { engine });
      expect(observation(env)).toContain('INVALID_PARAM');
      return 'INVALID_PARAM; the key never reached the model';
    });
    for (const include of ['vendor/*', 'vendor/**', '**/id_rsa', '*.txt', 'src/deep/up/**/id_rsa']) {
      attack(`Grep include ${include} through a symlink the repository ships (${engine})`, async (env) => {
        await runTool(env, 'Grep', { pattern: 'PRIVATE', include }, { engine });
        expect(observation(env)).toContain('No matches for /PRIVATE/');
        return 'no matches: the walk neither enters a linked directory nor opens a linked file outside';
      });
    }
  }
  for (const pattern of ['vendor/*', 'vendor/**/*', 'src/deep/up/*/id_rsa', '**/id_rsa']) {
    attack(`Glob ${pattern} through a symlink the repository ships`, async (env) => {
      await runTool(env, 'Glob', { pattern });
      expect(observation(env)).toContain('No files match');
      expect(observation(env)).not.toContain('project/../');
      return 'no file listed';
    });
  }
  for (const pattern of ['../*', '.{.,}/*']) {
    attack(`Glob ${pattern}`, async (env) => {
      await runTool(env, 'Glob', { pattern });
      expect(observation(env)).toContain('INVALID_PARAM');
      return 'INVALID_PARAM; nothing outside listed';
    });
  }
  attack('LS of a symlinked directory leading outside (vendor, src/deep/up)', async (env) => {
    env.server.setScript([act('LS', { path: 'vendor' }), act('LS', { path: 'src/deep/up' }), finish('done')]);
    const result = await runMca(env.sandbox, ['-p', 'look'], { baseUrl: env.server.url, timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(0);
    const sent = everythingSent(env);
    expect(sent.match(/ACCESS_DENIED/g)?.length).toBeGreaterThanOrEqual(2);
    expect(sent).not.toContain('id_rsa');
    return 'ACCESS_DENIED twice; no name outside listed';
  });

  // --- class 6: deny rules hold for every reader ---------------------------------------------------------------------
  walkClass = 'deny rules bypassed by other readers';
  const DENY = ['--disallowedTools', 'Read(./.env) Read(.env.*)'];
  for (const engine of ENGINES) {
    for (const include of ['.env', '.*', '**/.env*', '.e*', '*production', 'config/.env*']) {
      attack(`Read(./.env) Read(.env.*) denied; Grep include ${include} (${engine})`, async (env) => {
        await runTool(env, 'Grep', { pattern: 'TOKEN', include }, { engine, args: DENY });
        expect(everythingSent(env)).not.toContain(DOTENV);
        return `the token was never sent; ${observation(env).includes('left out') ? 'the result says a rule left a file out' : 'no match'}`;
      });
    }
    attack(
      `no deny rule: Grep include .env* (${engine}) skips the .gitignore'd .env, finds config/.env.production`,
      async (env) => {
        await runTool(env, 'Grep', { pattern: 'TOKEN', include: '**/.env*' }, { engine });
        expect(observation(env)).toContain(`${DOTENV}-production`);
        expect(observation(env)).not.toContain(`TOKEN=${DOTENV}\\n`);
        expect(observation(env)).not.toMatch(/\\n\.env\\n/);
        return 'the control case: without a rule the unignored file is found, so the guard above is what holds';
      },
    );
  }
  attack('Read(./.env) Read(.env.*) denied; Glob **/.env* and LS include_hidden', async (env) => {
    env.server.setScript([
      act('Glob', { pattern: '**/.env*' }),
      act('LS', { path: '.', include_hidden: true }),
      finish('done'),
    ]);
    const result = await runMca(env.sandbox, [...DENY, '-p', 'look'], { baseUrl: env.server.url, timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(0);
    const last = JSON.stringify(env.server.requests.at(-1)?.body ?? '');
    expect(last).toContain('No files match');
    expect(last).toContain('1 file left out');
    expect(last).toContain('1 entry left out');
    expect(last).not.toMatch(/\\n {2}\.env/);
    return 'the name .env is listed by neither; each says what a rule left out';
  });

  // --- class 8: hangs that ignore Ctrl-C ----------------------------------------------------------------------------
  walkClass = 'hangs that ignore Ctrl-C';
  const redos = (env: Env): void => writeFileSync(join(env.sandbox.project, 'src', 'bad.txt'), `${'a'.repeat(48)}!\n`);
  attack('JS Grep (a+)+$ on a 48-character line: TIMEOUT at the deadline', async (env) => {
    redos(env);
    await runTool(
      env,
      'Grep',
      { pattern: '(a+)+$', path: 'src' },
      { engine: 'js', envVars: { MCA_TOOL_DEADLINE_MS: '1500' } },
    );
    expect(observation(env)).toContain('TIMEOUT');
    expect(observation(env)).toContain('Grep was stopped after 1500 ms');
    return 'the model gets TIMEOUT after the deadline (1.5 s here, 60 s by default); the run goes on';
  });
  attack('Glob with 14 stars on a 150-character name: TIMEOUT at the deadline', async (env) => {
    writeFileSync(join(env.sandbox.project, 'src', 'a'.repeat(150)), 'x');
    await runTool(env, 'Glob', { pattern: `src/${'*a'.repeat(14)}b` }, { envVars: { MCA_TOOL_DEADLINE_MS: '1500' } });
    expect(observation(env)).toContain('TIMEOUT');
    return 'the model gets TIMEOUT; the run goes on';
  });
  for (const [what, tool, input, signal, code] of [
    ['SIGINT during JS Grep (a+)+$', 'Grep', { pattern: '(a+)+$', path: 'src' }, 'SIGINT', 130],
    ['SIGTERM during JS Grep ^(a|aa)*$', 'Grep', { pattern: '^(a|aa)*$', path: 'src' }, 'SIGTERM', 143],
    ['SIGINT during a many-star Glob', 'Glob', { pattern: `src/${'*a'.repeat(14)}b` }, 'SIGINT', 130],
  ] as const) {
    attack(`${what} (default 60 s deadline)`, async (env) => {
      redos(env);
      writeFileSync(join(env.sandbox.project, 'src', 'a'.repeat(150)), 'x');
      env.server.setScript([act(tool, input), finish('unreachable')]);
      const run = collect(
        spawnMca(env.sandbox, ['-p', 'search'], { baseUrl: env.server.url, env: { MCA_GREP_ENGINE: 'js' } }),
        // The bound of the test: a run that ignores the signal is killed here and the case fails.
        10_000,
      );
      for (let waited = 0; env.server.requests.length < 1 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // Give the tool time to be inside its pattern.
      await new Promise((resolve) => setTimeout(resolve, 700));
      run.child.kill(signal);
      const ended = await run.done;
      expect(ended.stderr).not.toContain('[harness] killed');
      expect(ended.code, ended.stderr).toBe(code);
      expect(env.server.requests).toHaveLength(1);
      return `exit ${code} (the harness kills a run still alive after 10 s: none was)`;
    });
  }
  for (const engine of ENGINES) {
    attack(`Grep with a FIFO as its path (${engine})`, async (env) => {
      execFileSync('mkfifo', [join(env.sandbox.project, 'pipe')]);
      await runTool(env, 'Grep', { pattern: 'x', path: 'pipe' }, { engine });
      expect(observation(env)).toContain('not a regular file or directory');
      return 'INVALID_PARAM at once (ripgrep would block on it forever)';
    });
  }

  // --- class 9: crashes on big honest input -------------------------------------------------------------------------
  walkClass = 'crashes on big honest input';
  attack('ripgrep over a 3 MB one-line minified file matching every character', async (env) => {
    if (!hasRg) return 'skipped: no ripgrep';
    writeFileSync(join(env.sandbox.project, 'app.min.js'), `var a="${'a'.repeat(3 * 1024 * 1024)}";\n`);
    await runTool(env, 'Grep', { pattern: 'a', include: '*.js' }, { engine: 'ripgrep' });
    expect(observation(env)).toMatch(/app\.min\.js\\n {2}1: var a=\\"aaaa/);
    return 'exit 0; the match is reported with its line cut (a 168 MB --json event read in bounded memory)';
  });
});
