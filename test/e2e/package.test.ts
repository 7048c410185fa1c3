/**
 * The package as users get it: `npm pack` of the built tree, then `npx` of the tarball in an empty directory with
 * a throwaway npm cache and config, offline (the package has no runtime dependencies, so nothing is fetched). It
 * must print its version and run a `-p` task with a tool step against the loopback fake Anthropic server. The
 * pack runs with --ignore-scripts: `prepack` would rebuild dist/ under the other e2e tests running in parallel,
 * and `npm test` has just built it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, systemText, userText } from '../helpers/fake-anthropic-server.js';
import { packAndExtract, type PackedPackage } from '../../bench/lib/packed-package.js';
import { runsWith } from '../helpers/optional-tools.js';
import { tempProject } from '../helpers/temp-project.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const hasNpm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Packages the bundle may name without shipping them: Ink imports react-devtools-core only under DEV=true (inside a
 * try that prints how to install it), and the `ws` it bundles for that tries the optional native helpers
 * bufferutil and utf-8-validate inside try/catch. All three live in the devtools chunk, which only a dynamic
 * import reaches.
 */
const OPTIONAL_EXTERNALS = new Set(['react-devtools-core', 'bufferutil', 'utf-8-validate']);

interface Packed extends PackedPackage {
  /** A temp HOME, npm cache and empty npm configs: the user's own are never read or written. */
  npmEnv: Record<string, string>;
  base: string;
}

let packed: Packed | undefined;

function pkg(): Packed {
  if (packed === undefined) throw new Error('npm pack did not run');
  return packed;
}

/** Only PATH and locale from the outer environment: no npm_config_* of an enclosing `npm test`, no real keys. */
function isolatedNpmEnv(base: string): Record<string, string> {
  const [userrc, globalrc] = [join(base, 'user-npmrc'), join(base, 'global-npmrc')];
  writeFileSync(userrc, '');
  writeFileSync(globalrc, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: join(base, 'home'),
    npm_config_cache: join(base, 'npm-cache'),
    npm_config_userconfig: userrc,
    npm_config_globalconfig: globalrc,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  if (process.env.LANG !== undefined) env.LANG = process.env.LANG;
  mkdirSync(env.HOME as string);
  return env;
}

function pack(): Packed {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-pack-')));
  const npmEnv = isolatedNpmEnv(base);
  return { ...packAndExtract(repoRoot, base, npmEnv), npmEnv, base };
}

/**
 * Runs `npx --package=<tarball> -- mca …` offline from `cwd` with stdin closed (as from a script); rejects with its
 * output on a non-zero exit or after 60 s.
 */
function npxMca(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ stdout: string }> {
  const argv = ['--yes', '--offline', `--package=${pkg().tarball}`, '--', 'mca', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', argv, { cwd, env: { ...pkg().npmEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout });
      else reject(new Error(`npx mca ${args.join(' ')} exited ${code ?? signal}: ${stderr}`));
    });
  });
}

/** Every package a JS file of the bundle imports (static, dynamic or require) that Node does not provide. */
async function bareImports(dir: string): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const note = (specifier: string, file: string) => {
    if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return;
    found.set(specifier, (found.get(specifier) ?? new Set()).add(file));
  };
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.[mc]?js$/.test(name));
  // ES imports: esbuild parses each file (comments and strings cannot fool it) and lists what it imports.
  const { metafile } = await build({
    entryPoints: files.map((name) => join(dir, name)),
    bundle: true,
    write: false,
    outdir: join(dir, 'unused'),
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) if (imported.external) note(imported.path, file);
  }
  // require() calls go through the bundle's own `require`/`__require`, which esbuild does not see as imports:
  // scan the code with its comments removed.
  for (const name of files) {
    const { code } = await transform(readFileSync(join(dir, name), 'utf8'), { minifyWhitespace: true, format: 'esm' });
    // The banner's own `const require` makes esbuild rename the bundle's calls to `require2(…)`. A call that opens a
    // string is code a library generates as text, not one it makes (ajv's `'require("ajv/dist/runtime/equal")'`).
    for (const match of code.matchAll(/(?<!["'`])\b(?:__)?require\d*\(\s*["'`]([^"'`]+)["'`]\s*\)/g))
      note(match[1] as string, name);
  }
  return found;
}

describe.runIf(runsWith('npm', hasNpm, 'the npm pack + npx test'))('the packed package', () => {
  beforeAll(() => {
    packed = pack();
  }, 120_000);
  afterAll(() => {
    if (packed !== undefined) rmSync(packed.base, { recursive: true, force: true });
  });

  it('publishes only what runs: the bundle, prompts, README, KEYS.md, LICENSE; no source maps and no dependencies', () => {
    const outside = pkg().paths.filter(
      (path) =>
        !/^dist\/[\w/-]+\.(?:js|mjs|cjs|json)$/.test(path) &&
        !/^prompts\/[\w/-]+\.md$/.test(path) &&
        !['package.json', 'README.md', 'KEYS.md', 'LICENSE'].includes(path),
    );
    expect(outside).toEqual([]);
    expect(pkg().paths).toEqual(
      expect.arrayContaining([
        'dist/cli/mca.cjs',
        'dist/cli/main.js',
        'prompts/system.md',
        'README.md',
        'KEYS.md',
        'LICENSE',
        'package.json',
      ]),
    );
    expect(pkg().paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(pkg().packageDir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies']) {
      expect({ field, value: manifest[field] }).toEqual({ field, value: undefined });
    }
    expect(manifest.bin).toEqual({ mca: 'dist/cli/mca.cjs' });
  });

  it('imports no package at run time beyond the optional devtools ones, and those only behind a dynamic import', async () => {
    const found = await bareImports(join(pkg().packageDir, 'dist'));
    const dist = join(pkg().packageDir, 'dist', 'cli');
    const unexpected = [...found.keys()].filter((specifier) => !OPTIONAL_EXTERNALS.has(specifier));
    expect(unexpected).toEqual([]);
    const optionalChunks = new Set(
      [...found.values()].flatMap((files) => [...files].map((file) => file.split('/').pop())),
    );
    // The chunks that name them are reached from the rest of the bundle by dynamic import() only.
    const { metafile } = await build({
      entryPoints: [join(dist, 'main.js')],
      bundle: true,
      write: false,
      outdir: join(dist, 'unused'),
      format: 'esm',
      platform: 'node',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
    });
    const edges = Object.values(metafile.inputs).flatMap((input) => input.imports);
    for (const chunk of optionalChunks) {
      const into = edges.filter((edge) => edge.path.endsWith(`/${chunk as string}`));
      expect(into.length).toBeGreaterThan(0);
      expect(into.map((edge) => edge.kind)).toEqual(into.map(() => 'dynamic-import'));
    }
  });

  it('runs from an empty directory with npx, offline: --version, and -p with a tool step against the fake API', async () => {
    const { root: project, home } = tempProject('mca-npx-', { 'notes.txt': 'the packed build reads files\n' });
    const empty = join(pkg().base, 'empty');
    mkdirSync(empty);

    const version = await npxMca(['--version'], empty);
    const { version: expected } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(version.stdout).toBe(`${expected} (mca)\n`);
    expect(readdirSync(empty)).toEqual([]);

    const server = await startFakeAnthropic([
      { text: 'Thought: look first\nAction: Read[{"path":"notes.txt"}]' },
      { text: 'Thought: done\nAction: Finish[The notes say the packed build reads files.]' },
    ]);
    try {
      const run = await npxMca(['-p', 'what do the notes say?', '--cwd', project], empty, {
        ANTHROPIC_API_KEY: 'sk-ant-test-package-0123456789',
        ANTHROPIC_BASE_URL: server.url,
        MCA_HOME: home,
      });
      expect(run.stdout).toBe('The notes say the packed build reads files.\n');
      expect(server.requests).toHaveLength(2);
      const [first, second] = server.requests;
      // The prompts/ directory shipped in the package is the one it found: L1 carries prompts/system.md.
      expect(systemText(first!.body)).toContain('You are mca, a coding agent');
      expect(userText(first!.body)).toContain('what do the notes say?');
      expect(userText(second!.body)).toContain('the packed build reads files');
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      await server.close();
    }

    // npx installed the tarball alone: no dependency came with it.
    const npxRoot = join(pkg().npmEnv.npm_config_cache as string, '_npx');
    const installs = readdirSync(npxRoot).map((hash) => readdirSync(join(npxRoot, hash, 'node_modules')).sort());
    expect(installs).toEqual([['.bin', '.package-lock.json', 'mca']]);
  });
});
