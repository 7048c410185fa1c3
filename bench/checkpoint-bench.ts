/**
 * Checkpoint bench: what the snapshot around one Bash call costs on a generated git repository of 10,000 files
 * (40 lines each, 100 per directory, plus an ignored node_modules of 2,000 files the scan must skip). Measured
 * through SessionCheckpoints.beforeRun and its after-step, with no command between them (the command's own time
 * is not the snapshot's): the first call of a session while nothing is committed yet (every file untracked, so
 * every one is copied), then, once the files are committed, the first call of a new session, a call with nothing
 * changed (the steady state), and a call after 10 files changed. Part of `npm run bench` (section
 * `checkpoints`); alone: `npx tsx bench/checkpoint-bench.ts` prints the report's section.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LIMITS, SessionCheckpoints, type CheckpointLimits } from '../src/checkpoints/session-checkpoints.js';
import { bashTool } from '../src/tools/processes/bash.js';

function text(index: number, salt = 0): string {
  const lines: string[] = [];
  for (let line = 0; line < 40; line += 1) lines.push(`export const v${index}_${line} = ${line * 7 + salt};`);
  return `${lines.join('\n')}\n`;
}

async function tree(root: string, files: number): Promise<void> {
  for (let dir = 0; dir * 100 < files; dir += 1) {
    // Past 10,000 files, 100 directories of 100 directories (a flat src/ of 1,000 entries is not a real tree).
    const path =
      dir < 100 ? join(root, 'src', `d${dir}`) : join(root, 'pkg', `p${Math.floor(dir / 100)}`, `d${dir % 100}`);
    await mkdir(path, { recursive: true });
    const count = Math.min(100, files - dir * 100);
    await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(path, `f${i}.ts`), text(dir * 100 + i))));
  }
  await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
  await Promise.all(
    Array.from({ length: 2000 }, (_, i) => writeFile(join(root, 'node_modules', 'pkg', `m${i}.js`), text(i))),
  );
  await writeFile(join(root, '.gitignore'), 'node_modules/\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
}

function commitAll(root: string): void {
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync(
    'git',
    ['-c', 'gc.auto=0', '-c', 'user.email=b@e.nch', '-c', 'user.name=bench', 'commit', '-qm', 'tree'],
    { cwd: root },
  );
}

/** CPU ms of the children this process waited for (git), from /proc (0 where there is none). */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, in 10 ms ticks
  } catch {
    return 0;
  }
}

/** One call's wall time and CPU time (this process, its threads and the git it ran): the CPU figure moves far
 * less with the shared machine's load than the wall figure. */
interface Timed {
  wallMs: number;
  cpuMs: number;
  /** User CPU of this process alone: mca's own work, without the kernel's file writes (which a loaded shared disk
   * makes swing several-fold between runs) and without git. */
  userMs: number;
}

async function timeCall(store: SessionCheckpoints, id: string): Promise<Timed> {
  const cpu = process.cpuUsage();
  const children = childCpuMs();
  const started = performance.now();
  const after = await store.beforeRun(
    { id, name: 'Bash', input: { command: 'true' }, source: 'model' },
    bashTool,
    new AbortController().signal,
  );
  await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 + childCpuMs() - children, userMs: used.user / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function medians(values: Timed[]): Timed {
  return {
    wallMs: median(values.map((value) => value.wallMs)),
    cpuMs: median(values.map((value) => value.cpuMs)),
    userMs: median(values.map((value) => value.userMs)),
  };
}

export interface CheckpointBenchResult {
  files: number;
  runs: number;
  load: number;
  /** The first call while nothing is committed (every file untracked). */
  firstUntracked: Timed;
  first: Timed;
  steadyMedian: Timed;
  changedMedian: Timed;
  storeMb: number;
}

export async function runCheckpointBench(options: { files: number; runs: number }): Promise<CheckpointBenchResult> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mca-checkpoint-bench-')));
  const root = join(base, 'project');
  await mkdir(root);
  try {
    await tree(root, options.files);
    // The fixture's own writes are flushed first: an fsync of the store's journal must not pay for them.
    execFileSync('sync');
    const load = loadavg()[0] ?? 0;
    const untracked = new SessionCheckpoints(join(base, 'store-untracked'), root);
    const firstUntracked = await timeCall(untracked, 'toolu_first_untracked');
    commitAll(root);
    execFileSync('sync');
    const store = new SessionCheckpoints(join(base, 'store'), root);
    const first = await timeCall(store, 'toolu_first');
    const steady: Timed[] = [];
    for (let run = 0; run < options.runs; run += 1) steady.push(await timeCall(store, `toolu_s${run}`));
    const changed: Timed[] = [];
    for (let run = 0; run < options.runs; run += 1) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => writeFile(join(root, 'src', `d${i}`, `f${run}.ts`), text(i, run + 1))),
      );
      changed.push(await timeCall(store, `toolu_c${run}`));
    }
    return {
      files: options.files,
      runs: options.runs,
      load,
      firstUntracked,
      first,
      steadyMedian: medians(steady),
      changedMedian: medians(changed),
      storeMb: (await store.blobs.size()) / 1e6,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** BENCHMARKS.md's section 7 (bench/report.ts renders it the same way). */
export function checkpointSection(result: CheckpointBenchResult): string[] {
  const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
  const row = (name: string, timed: Timed): string =>
    `| ${name} | ${ms(timed.wallMs)} | ${ms(timed.cpuMs)} | ${ms(timed.userMs)} |`;
  return [
    '## 7. Checkpoints: the snapshot around one Bash call',
    `${result.files.toLocaleString('en-US')} generated files (40 lines each, 100 per directory) plus 2,000 files in an ` +
      'ignored `node_modules/`, in a git repository (committed, except in the first row): the scan before a Bash ' +
      'call and the comparison after it, with no ' +
      `command in between; ${result.runs} runs per case, medians. 1-minute load average at the start of this section: ` +
      `${result.load.toFixed(1)} on a shared machine, so the wall figures are noisy; the CPU column (this process, its threads and the git it ran) less so, and the user-CPU column (mca's own work, without the kernel's file writes) least.`,
    [
      '| case | wall | CPU (mca + git) | user CPU (mca) |',
      '| --- | --- | --- | --- |',
      row(
        'first Bash call of a session, nothing committed yet (copies every file into the store)',
        result.firstUntracked,
      ),
      row("first Bash call of a session, files committed (checked against git's index, nothing copied)", result.first),
      row('per call, nothing changed since the last call', result.steadyMedian),
      row('per call, 10 files changed before the call', result.changedMedian),
      `| store size after ${1 + 2 * result.runs} calls | ${result.storeMb.toFixed(1)} MB | | |`,
    ].join('\n'),
    'The per-call cost is two scans of the project, before and after (each one `git ls-files` of the tracked and ' +
      "untracked, non-ignored files, or the tools' gitignore-aware walk outside git, and an lstat of each file), and " +
      'a stat comparison; only ' +
      'changed files are read and copied. The first call of a session also has `git hash-object --no-filters` hash ' +
      'every tracked file: one whose bytes are its index blob is recorded as a reference to that blob (copied from ' +
      "git's object store only if a command changes it); modified and untracked files under 1 MiB are copied (made " +
      "durable with one `sync -f` of the store's file system), read and written with synchronous calls in chunks " +
      'of 200 files or 8 MiB with a yield of the event loop between them. A resumed session reuses its last scan.',
  ];
}

/** The part of SessionCheckpoints the bench drives (this tree's, or a base tree's loaded from its source). */
type StoreClass = new (dir: string, root: string, limits?: CheckpointLimits) => SessionCheckpoints;

export interface AbCase {
  name: string;
  /** Per side: wall and CPU of each run, in the order run (A and B interleaved). */
  a: Timed[];
  b: Timed[];
}

/**
 * Interleaved A/B on one fixture of `files` files: A is this tree, B the tree at `baseDir` (its
 * src/checkpoints/session-checkpoints.ts, run from source). Per case, runs alternate A B, B A, … on the same files:
 * the first call of a fresh session with nothing committed, then (the files committed 2.1 s after they were
 * written, as in a repository checked out earlier) the first call of a fresh session, a call with nothing changed,
 * and a call after 10 files changed (each side sees the same 10 changes since its own last call).
 */
export async function runCheckpointAb(options: {
  files: number;
  runs: number;
  firstRuns: number;
  baseDir: string;
}): Promise<{ files: number; loadStart: number; loadEnd: number; cases: AbCase[] }> {
  const baseModule = (await import(
    pathToFileURL(join(options.baseDir, 'src/checkpoints/session-checkpoints.ts')).href
  )) as { SessionCheckpoints: StoreClass };
  const sides: Array<[StoreClass, Timed[]]> = [];
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mca-checkpoint-ab-')));
  const root = join(base, 'project');
  await mkdir(root);
  const limits: CheckpointLimits = {
    ...DEFAULT_LIMITS,
    maxFiles: Math.max(DEFAULT_LIMITS.maxFiles, options.files * 2),
  };
  let stores = 0;
  const fresh = (Store: StoreClass): SessionCheckpoints => {
    stores += 1;
    return new Store(join(base, `store-${stores}`), root, limits);
  };
  const sidesOf = (): Array<[StoreClass, Timed[]]> => {
    const a: Timed[] = [];
    const b: Timed[] = [];
    sides.splice(0, sides.length, [SessionCheckpoints as StoreClass, a], [baseModule.SessionCheckpoints, b]);
    return sides;
  };
  const cases: AbCase[] = [];
  const record = (name: string, pair: Array<[StoreClass, Timed[]]>): void => {
    cases.push({ name, a: pair[0]?.[1] ?? [], b: pair[1]?.[1] ?? [] });
  };
  try {
    await tree(root, options.files);
    execFileSync('sync');
    const loadStart = loadavg()[0] ?? 0;
    const order = (run: number, pair: Array<[StoreClass, Timed[]]>) => (run % 2 === 0 ? pair : [...pair].reverse());
    let pair = sidesOf();
    for (let run = 0; run < options.firstRuns; run += 1) {
      for (const [Store, times] of order(run, pair)) times.push(await timeCall(fresh(Store), `toolu_u${run}`));
    }
    record('first call of a session, nothing committed', pair);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    commitAll(root);
    execFileSync('sync');
    pair = sidesOf();
    for (let run = 0; run < options.firstRuns; run += 1) {
      for (const [Store, times] of order(run, pair)) times.push(await timeCall(fresh(Store), `toolu_f${run}`));
    }
    record('first call of a session, committed', pair);
    // One warm session per side for the per-call cases.
    const warm = new Map<StoreClass, SessionCheckpoints>();
    for (const [Store] of pair) {
      const store = fresh(Store);
      await timeCall(store, 'toolu_warm');
      warm.set(Store, store);
    }
    pair = sidesOf();
    for (let run = 0; run < options.runs; run += 1) {
      for (const [Store, times] of order(run, pair))
        times.push(await timeCall(warm.get(Store) as SessionCheckpoints, `toolu_s${run}`));
    }
    record('per call, nothing changed', pair);
    pair = sidesOf();
    for (let run = 0; run < options.runs; run += 1) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => writeFile(join(root, 'src', `d${i}`, `f${run}.ts`), text(i, run + 1))),
      );
      for (const [Store, times] of order(run, pair))
        times.push(await timeCall(warm.get(Store) as SessionCheckpoints, `toolu_c${run}`));
    }
    record('per call, 10 files changed', pair);
    return { files: options.files, loadStart, loadEnd: loadavg()[0] ?? 0, cases };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

function abTable(result: Awaited<ReturnType<typeof runCheckpointAb>>): string {
  const ms = (value: number): string =>
    `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ms`;
  const rows = result.cases.map((entry) => {
    const a = medians(entry.a);
    const b = medians(entry.b);
    return `| ${result.files.toLocaleString('en-US')} | ${entry.name} | ${entry.a.length} | ${ms(b.wallMs)} | ${ms(a.wallMs)} | ${ms(b.cpuMs)} | ${ms(a.cpuMs)} |`;
  });
  return [
    `load ${result.loadStart.toFixed(1)} → ${result.loadEnd.toFixed(1)}`,
    '| files | case | pairs | wall base | wall this | CPU base | CPU this |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseAt = process.argv.indexOf('--base');
  if (baseAt !== -1) {
    // `npx tsx bench/checkpoint-bench.ts --base <tree with src/> [--files 10000,100000]`: interleaved A/B.
    const filesAt = process.argv.indexOf('--files');
    const sizes = (filesAt === -1 ? '10000' : (process.argv[filesAt + 1] ?? '10000')).split(',').map(Number);
    for (const files of sizes) {
      const result = await runCheckpointAb({
        files,
        runs: Number(process.env.CHECKPOINT_BENCH_RUNS ?? 7),
        firstRuns: Number(process.env.CHECKPOINT_BENCH_FIRST_RUNS ?? (files > 20_000 ? 1 : 3)),
        baseDir: process.argv[baseAt + 1] ?? '',
      });
      process.stdout.write(`${abTable(result)}\n\n`);
    }
  } else {
    const result = await runCheckpointBench({
      files: Number(process.env.CHECKPOINT_BENCH_FILES ?? 10_000),
      runs: Number(process.env.CHECKPOINT_BENCH_RUNS ?? 7),
    });
    process.stdout.write(`${checkpointSection(result).join('\n\n')}\n`);
  }
}
