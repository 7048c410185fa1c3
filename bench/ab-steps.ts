/**
 * `npm run bench:ab -- --base DIR [--runs N]`: the start-up bench's 8-step task and one-shot, run from two packages
 * in alternation, so a burst of load on the shared machine hits both alike. DIR is an extracted package (holds
 * package.json and dist/, e.g. from `npm pack` of an older commit); the other side is this repository, packed as the
 * bench packs it. Per round the order of the two flips. Figures are medians over the rounds: per tool step, answer
 * finished → next request (bench/startup-bench.ts's definition), their mean (the per-step overhead) and median,
 * the run's wall time, and its CPU time (user + system, all threads, from bash's `time`), which the load of other
 * processes changes far less than wall time. A measurement aid: it asserts nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { startFakeAnthropic, type FakeReplyStep } from '../test/helpers/fake-anthropic-server.js';
import { ensureBuild } from './lib/ensure-build.js';
import { packAndExtract } from './lib/packed-package.js';
import { watchServer } from './lib/server-clock.js';
import { median } from './lib/stats.js';
import { fakeModelEnv, FINISH, MULTI_STEP, MULTI_STEP_TASK, writeProject } from './lib/startup-task.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Side {
  name: string;
  bin: string;
  gaps: number[][];
  wall: number[];
  cpu: number[];
  oneShotWall: number[];
  oneShotCpu: number[];
}

function argValue(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at < 0 ? undefined : process.argv[at + 1];
}

/**
 * Runs `node bin args` under bash's `time` (millisecond resolution; /usr/bin/time prints only centiseconds): wall
 * (ms, this process's clock) and CPU (ms, user + system of the child and its children).
 */
function run(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, report: string) {
  return new Promise<{ code: number | null; wallMs: number; cpuMs: number; spawnedAt: number }>((done, fail) => {
    const spawnedAt = performance.now();
    const script = 'TIMEFORMAT="%3U %3S"; { time "$@" >/dev/null 2>&1 ; } 2> "$MCA_AB_REPORT"';
    const child = spawn('bash', ['-c', script, 'ab', process.execPath, bin, ...args], {
      env: { ...env, MCA_AB_REPORT: report },
      cwd,
      stdio: 'ignore',
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - spawnedAt;
      const [user = Number.NaN, system = Number.NaN] = readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .at(-1)!
        .split(' ')
        .map(Number);
      done({ code, wallMs, cpuMs: (user + system) * 1000, spawnedAt });
    });
  });
}

async function main(): Promise<void> {
  const base = argValue('--base');
  const runs = Number(argValue('--runs') ?? '10');
  if (base === undefined || !existsSync(join(base, 'package.json'))) {
    process.stderr.write('ab-steps: --base DIR must name an extracted package (with package.json)\n');
    process.exit(2);
  }
  ensureBuild(root, (line) => process.stdout.write(`${line}\n`));
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'mca-ab-steps-')));
  const server = await startFakeAnthropic([FINISH], { loop: true });
  const clock = watchServer(Number(new URL(server.url).port));
  try {
    const pkg = packAndExtract(root, join(scratch, 'pack'));
    const baseBin = join(
      base,
      (JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')) as { bin: { mca: string } }).bin.mca,
    );
    const sides: Side[] = [
      { name: 'base', bin: baseBin, gaps: [], wall: [], cpu: [], oneShotWall: [], oneShotCpu: [] },
      { name: 'this', bin: pkg.bin, gaps: [], wall: [], cpu: [], oneShotWall: [], oneShotCpu: [] },
    ];
    const project = join(scratch, 'project');
    await writeProject(project);
    const env = fakeModelEnv(server.url, join(scratch, 'home'));
    const report = join(scratch, 'time-report');
    const once = async (side: Side, script: FakeReplyStep[], args: string[], record: boolean): Promise<void> => {
      server.setScript(script);
      clock.reset();
      const result = await run(side.bin, args, env, project, report);
      if (result.code !== 0 || clock.arrivals.length !== script.length) {
        throw new Error(`${side.name}: exit ${String(result.code)} after ${clock.arrivals.length} requests`);
      }
      if (!record) return;
      if (script.length === 1) {
        side.oneShotWall.push(result.wallMs);
        side.oneShotCpu.push(result.cpuMs);
        return;
      }
      side.wall.push(result.wallMs);
      side.cpu.push(result.cpuMs);
      for (let step = 0; step + 1 < clock.arrivals.length; step += 1) {
        (side.gaps[step] ??= []).push((clock.arrivals[step + 1] ?? Number.NaN) - (clock.finishes[step] ?? Number.NaN));
      }
    };
    const load = loadavg()[0]?.toFixed(1) ?? '?';
    for (let round = 0; round <= runs; round += 1) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        await once(side, MULTI_STEP, ['-p', MULTI_STEP_TASK], round > 0);
        await once(side, [FINISH], ['-p', 'Say ok.'], round > 0);
      }
    }
    const tools = MULTI_STEP.slice(0, -1).map((step) => /Action: (\w+)\[/.exec(step.text)?.[1] ?? '?');
    const fmt = (value: number): string => `${value.toFixed(1)} ms`;
    const lines = [
      `${runs} rounds, alternating; load average ${load} at the start, ${loadavg()[0]?.toFixed(1) ?? '?'} at the end`,
      '',
      '| figure (median over the rounds) | base | this |',
      '| --- | --- | --- |',
      ...tools.map(
        (tool, step) =>
          `| ${step + 1}. ${tool} | ${sides.map((side) => fmt(median(side.gaps[step] ?? []))).join(' | ')} |`,
      ),
    ];
    const stepMedians = (side: Side): number[] => tools.map((_, step) => median(side.gaps[step] ?? []));
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
    lines.push(
      `| **mean per step** | ${sides.map((side) => fmt(mean(stepMedians(side)))).join(' | ')} |`,
      `| median of the steps | ${sides.map((side) => fmt(median(stepMedians(side)))).join(' | ')} |`,
      `| 8 steps: wall | ${sides.map((side) => fmt(median(side.wall))).join(' | ')} |`,
      `| 8 steps: CPU (user + system) | ${sides.map((side) => fmt(median(side.cpu))).join(' | ')} |`,
      `| one-shot: wall | ${sides.map((side) => fmt(median(side.oneShotWall))).join(' | ')} |`,
      `| one-shot: CPU (user + system) | ${sides.map((side) => fmt(median(side.oneShotCpu))).join(' | ')} |`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    clock.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
