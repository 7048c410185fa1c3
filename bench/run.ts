/**
 * `npm run bench [-- --quick] [-- --only replay,scaling,startup,tools,mcp,checkpoints] [-- --runs N] [-- --data DIR] [-- --json FILE]`:
 * runs the benchmark sections, prints a summary and rewrites BENCHMARKS.md at the repository root with the replay's
 * cost-vs-memory plots in bench/plots/. `--data` replays another directory of recordings (bench/data/README.md
 * format); `--json` also writes every figure of the run as JSON. A run with `--only` or `--data` writes its report
 * to bench/results/ instead (git-ignored), so it never replaces the repository's figures. Benchmarks measure; they
 * assert nothing.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeProtocolLayer } from '../src/context/system-layer.js';
import { loadPrompt } from '../src/context/prompt-loader.js';
import { createDefaultRegistry } from '../src/tools/registry/registry.js';
import { ensureBuild } from './lib/ensure-build.js';
import { machine } from './lib/machine.js';
import { costMemorySvg } from './plot.js';
import { renderReport, targetRows, type BenchResults, type PlotLinks } from './report.js';
import { runReplayBench, type ReplayResult } from './replay-bench.js';
import { runScalingBench } from './scaling-bench.js';
import { runStartupBench } from './startup-bench.js';
import { runToolsBench } from './tools-bench.js';
import { runMcpBench } from './mcp-bench.js';
import { runCheckpointBench } from './checkpoint-bench.js';

const SECTIONS = ['replay', 'scaling', 'startup', 'tools', 'mcp', 'checkpoints'] as const;
type Section = (typeof SECTIONS)[number];

// Every run talks to loopback fakes: a proxy set on the machine must not carry mca's requests (nor time them).
for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) delete process.env[name];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATA_DIR = join(root, 'bench', 'data', 'trajectories');

/** One cost-vs-memory SVG per replay workload; returns each plot's path relative to the report. */
function writePlots(replay: ReplayResult | undefined, plotDir: string, reportDir: string): PlotLinks {
  const links: Record<string, string> = {};
  if (replay === undefined) return links;
  mkdirSync(plotDir, { recursive: true });
  for (const workload of replay.workloads) {
    const file = join(plotDir, `replay-${workload.slug}.svg`);
    const title = `${workload.label}, ${workload.window / 1000}k window: cost vs memory`;
    const points = Object.entries(workload.byStrategy).map(([name, metrics]) => ({ name, metrics }));
    writeFileSync(file, costMemorySvg(title, points));
    links[workload.slug] = relative(reportDir, file);
  }
  return links;
}

function hasRecordings(dir: string): boolean {
  try {
    return readdirSync(dir).some((file) => file.endsWith('.jsonl'));
  } catch {
    return false;
  }
}

interface Args {
  quick: boolean;
  /** `--runs N`: rounds of the start-up section (default 20, 5 with --quick). */
  runs?: number;
  only: Set<Section>;
  dataDir?: string;
  jsonFile?: string;
}

/** The value of `--name VALUE` or `--name=VALUE`; exits with one clear line when the value is missing. */
function optionValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (at < 0) return undefined;
  const value = argv[at]?.includes('=') ? argv[at]?.slice(name.length + 1) : argv[at + 1];
  if (value === undefined || value === '' || value.startsWith('--')) {
    process.stderr.write(`bench: ${name} needs a value\n`);
    process.exit(2);
  }
  return value;
}

function parseArgs(argv: string[]): Args {
  const quick = argv.includes('--quick');
  let only = new Set<Section>(SECTIONS);
  const sections = optionValue(argv, '--only');
  if (sections !== undefined) {
    const names = sections.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      process.stderr.write(`bench: unknown section(s) ${unknown.join(', ')}; choose from ${SECTIONS.join(', ')}\n`);
      process.exit(2);
    }
    only = new Set(names as Section[]);
  }
  const runsText = optionValue(argv, '--runs');
  const runs = runsText === undefined ? undefined : Number(runsText);
  if (runs !== undefined && !(Number.isInteger(runs) && runs >= 1)) {
    process.stderr.write(`bench: --runs ${runsText ?? ''}: give a whole number of rounds, 1 or more\n`);
    process.exit(2);
  }
  const data = optionValue(argv, '--data');
  const json = optionValue(argv, '--json');
  if (data !== undefined && !hasRecordings(resolve(data))) {
    process.stderr.write(`bench: --data ${data}: not a directory with *.jsonl recordings (see bench/data/README.md)\n`);
    process.exit(2);
  }
  return {
    quick,
    only,
    ...(runs !== undefined ? { runs } : {}),
    ...(data !== undefined ? { dataDir: resolve(data) } : {}),
    ...(json !== undefined ? { jsonFile: resolve(json) } : {}),
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const { quick, only, runs, dataDir, jsonFile } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const systemText = composeProtocolLayer(
    loadPrompt('system'),
    { name: 'text', section: loadPrompt('protocol-text') },
    createDefaultRegistry().prompts(),
  );
  const args = process.argv.slice(2).join(' ');
  const results: BenchResults = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: machine(),
    command: `npm run bench${args ? ` -- ${args}` : ''}`,
    durationS: 0,
  };
  if (only.has('replay')) {
    log('replay: recorded sessions through mca, the peer policies and naive…');
    const replayDir = dataDir ?? DEFAULT_DATA_DIR;
    results.replay = await runReplayBench({
      dataDir: replayDir,
      systemText,
      ...(quick ? { maxSessions: 15 } : {}),
    });
    const inRepository = relative(root, replayDir);
    results.replay.dataDir = inRepository.startsWith('..') ? replayDir : inRepository;
  }
  if (only.has('scaling')) {
    log('scaling: ContextBuilder.build at 100 / 1,000 / 10,000 messages…');
    results.scaling = runScalingBench({ sizes: [100, 1_000, 10_000], repeats: quick ? 40 : 300, systemText });
  }
  if (only.has('startup')) {
    ensureBuild(root, log);
    log('startup: node -e 0, a node:http request script, mca --version / --help / -p (1 and 8 steps), packed…');
    results.startup = await runStartupBench({ runs: runs ?? (quick ? 5 : 20), root });
  }
  if (only.has('tools')) {
    log('tools: Grep / Glob / Read on a generated tree…');
    results.tools = await runToolsBench({ files: quick ? 2_000 : 20_000, runs: quick ? 3 : 5 });
  }
  if (only.has('mcp')) {
    ensureBuild(root, log);
    log('mcp: time to first request with three stdio servers vs none, per-call overhead…');
    results.mcp = await runMcpBench({ root, runs: runs ?? (quick ? 3 : 10) });
  }
  if (only.has('checkpoints')) {
    log('checkpoints: the snapshot around a Bash call on a generated repository…');
    results.checkpoints = await runCheckpointBench({ files: quick ? 2_000 : 10_000, runs: quick ? 3 : 7 });
  }
  results.durationS = (performance.now() - started) / 1000;
  // A partial run or other data must not replace the repository's report: it goes to bench/results/ instead.
  const partial = only.size < SECTIONS.length || dataDir !== undefined;
  const target = partial ? join(root, 'bench', 'results', 'partial.md') : join(root, 'BENCHMARKS.md');
  const plotDir = partial ? join(root, 'bench', 'results', 'plots') : join(root, 'bench', 'plots');
  mkdirSync(dirname(target), { recursive: true });
  const plots = writePlots(results.replay, plotDir, dirname(target));
  writeFileSync(target, renderReport(results, plots));
  if (jsonFile !== undefined) {
    mkdirSync(dirname(jsonFile), { recursive: true });
    writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
  }
  log('');
  for (const row of targetRows(results)) log(`${row.met ? '✓' : '✗'} ${row.target}: ${row.figure}`);
  log(`\n${relative(root, target)} written (${results.durationS.toFixed(0)} s).`);
  if (jsonFile !== undefined) log(`${jsonFile} written.`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
