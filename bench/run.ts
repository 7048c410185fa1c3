/**
 * `npm run bench [-- --quick] [-- --only replay,scaling,startup,tools]`: runs the benchmark sections, prints a
 * summary and rewrites BENCHMARKS.md at the repository root. Benchmarks measure; they assert nothing.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeSystemLayer } from '../src/context/system-layer.js';
import { loadPrompt } from '../src/context/prompt-loader.js';
import { createDefaultRegistry } from '../src/tools/registry.js';
import { ensureBuild } from './lib/ensure-build.js';
import { machine } from './lib/machine.js';
import { renderReport, targetRows, type BenchResults } from './report.js';
import { runReplayBench } from './replay-bench.js';
import { runScalingBench } from './scaling-bench.js';
import { runStartupBench } from './startup-bench.js';
import { runToolsBench } from './tools-bench.js';

const SECTIONS = ['replay', 'scaling', 'startup', 'tools'] as const;
type Section = (typeof SECTIONS)[number];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv: string[]): { quick: boolean; only: Set<Section> } {
  const quick = argv.includes('--quick');
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  let only = new Set<Section>(SECTIONS);
  if (at >= 0) {
    const value = argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
    const names = (value ?? '').split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
    if (unknown.length > 0 || names.length === 0) {
      process.stderr.write(`bench: unknown section(s) ${unknown.join(', ')}; choose from ${SECTIONS.join(', ')}\n`);
      process.exit(2);
    }
    only = new Set(names as Section[]);
  }
  return { quick, only };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const { quick, only } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const systemText = composeSystemLayer(loadPrompt('system'), createDefaultRegistry().prompts());
  const args = process.argv.slice(2).join(' ');
  const results: BenchResults = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: machine(),
    command: `npm run bench${args ? ` -- ${args}` : ''}`,
    durationS: 0,
  };
  if (only.has('replay')) {
    log('replay: recorded sessions through naive, full-then-compact and mca…');
    results.replay = await runReplayBench({
      dataDir: resolve(root, '..', 'shared', 'bench-data', 'trajectories'),
      systemText,
      ...(quick ? { maxSessions: 15 } : {}),
    });
  }
  if (only.has('scaling')) {
    log('scaling: ContextBuilder.build at 100 / 1,000 / 10,000 messages…');
    results.scaling = runScalingBench({ sizes: [100, 1_000, 10_000], repeats: quick ? 40 : 300, systemText });
  }
  if (only.has('startup')) {
    ensureBuild(root, log);
    const mainJs = join(root, 'dist', 'cli', 'main.js');
    if (!existsSync(mainJs)) log('startup: skipped, dist/cli/main.js is missing (run `npm run build`).');
    else {
      log('startup: mca --version / --help / -p against the fake server…');
      results.startup = await runStartupBench({ runs: quick ? 5 : 10, mainJs });
    }
  }
  if (only.has('tools')) {
    log('tools: Grep / Glob / Read on a generated tree…');
    results.tools = await runToolsBench({ files: quick ? 2_000 : 20_000, runs: quick ? 3 : 5 });
  }
  results.durationS = (performance.now() - started) / 1000;
  // A partial run must not replace the full report: it goes to bench/results/ (git-ignored) instead.
  const partial = only.size < SECTIONS.length;
  const target = partial ? join(root, 'bench', 'results', 'partial.md') : join(root, 'BENCHMARKS.md');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, renderReport(results));
  log('');
  for (const row of targetRows(results)) log(`${row.met ? '✓' : '✗'} ${row.target}: ${row.figure}`);
  log(`\n${partial ? 'bench/results/partial.md' : 'BENCHMARKS.md'} written (${results.durationS.toFixed(0)} s).`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
