/**
 * `npm run bench:start-ab -- --base DIR [--runs N] [--profiles N]`: issue 42's start-up figures, interleaved.
 * DIR is an extracted package of an older tree (package.json and dist/), the other side this repository packed as
 * the start-up bench packs it. Against the loopback fake model:
 * - spawn → first request of a one-shot `mca -p "Say ok."` for base and this, and of the bare node:http request
 *   script (bench/fixtures/node-http-request.mjs, sending the very request this side sent), in a rotating order per
 *   round so load hits all three alike; medians, and the median of the per-round ratios;
 * - with `--profiles N`: N interleaved `node --cpu-prof` runs of each side's one-shot, and the functions by inclusive
 *   sampled time per run (bench/lib/profile-windows.ts over the whole run).
 * A measurement aid: it asserts nothing. CPU and wall of whole runs: `npm run bench:ab`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { ensureBuild } from './lib/ensure-build.js';
import { packAndExtract } from './lib/packed-package.js';
import { profileWindows, type CpuProfile } from './lib/profile-windows.js';
import { watchServer } from './lib/server-clock.js';
import { median } from './lib/stats.js';
import { fakeModelEnv, FINISH } from './lib/startup-task.js';
import { timedSpawn } from './lib/timed-spawn.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPT = join(root, 'bench', 'fixtures', 'node-http-request.mjs');

function argValue(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at < 0 ? undefined : process.argv[at + 1];
}

function binOf(dir: string): string {
  return join(dir, (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: { mca: string } }).bin.mca);
}

/** Inclusive sampled ms per function over every profile in `dir`, divided by the number of profiles. */
function profileTop(dir: string, top: number): { perRunMs: number; top: Array<{ fn: string; ms: number }> } {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const totals = new Map<string, number>();
  let sampled = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile & { endTime: number };
    const [whole] = profileWindows(profile, [{ name: 'run', fromUs: profile.startTime, toUs: profile.endTime }], 60);
    sampled += whole?.sampledMs ?? 0;
    // Chunk names carry a content hash; without it the two sides' functions line up.
    for (const { fn, ms } of whole?.top ?? []) {
      const name = fn.replace(/-[A-Z0-9]{8}\.js:/, '.js:');
      totals.set(name, (totals.get(name) ?? 0) + ms);
    }
  }
  const runs = Math.max(1, files.length);
  return {
    perRunMs: sampled / runs,
    top: [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ fn, ms: ms / runs })),
  };
}

async function main(): Promise<void> {
  const base = argValue('--base');
  const runs = Number(argValue('--runs') ?? '20');
  const profiles = Number(argValue('--profiles') ?? '0');
  if (base === undefined || !existsSync(join(base, 'package.json'))) {
    process.stderr.write('start-ab: --base DIR must name an extracted package (with package.json)\n');
    process.exit(2);
  }
  ensureBuild(root, (line) => process.stdout.write(`${line}\n`));
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'mca-start-ab-')));
  const server = await startFakeAnthropic([FINISH], { loop: true });
  const clock = watchServer(Number(new URL(server.url).port));
  try {
    const pkg = packAndExtract(root, join(scratch, 'pack'));
    const env = fakeModelEnv(server.url, join(scratch, 'home'));
    const project = join(scratch, 'project');
    await mkdir(project, { recursive: true });
    // The script's request: the one this side sends for the one-shot.
    const capture = await timedSpawn(process.execPath, [pkg.bin, '-p', 'Say ok.'], { env, cwd: project });
    if (capture.code !== 0) throw new Error(`mca -p failed: ${capture.stderr}`);
    const body = join(scratch, 'request.json');
    writeFileSync(body, JSON.stringify(server.requests.at(-1)?.body));
    const sides: Array<{ name: string; args: string[]; first: number[] }> = [
      { name: 'base', args: [binOf(base), '-p', 'Say ok.'], first: [] },
      { name: 'this', args: [pkg.bin, '-p', 'Say ok.'], first: [] },
      { name: 'node:http script', args: [SCRIPT, body], first: [] },
    ];
    const startLoad = loadavg()[0] ?? Number.NaN;
    for (let round = 0; round <= runs; round += 1) {
      for (let index = 0; index < sides.length; index += 1) {
        const side = sides[(index + round) % sides.length] as (typeof sides)[number];
        clock.reset();
        const run = await timedSpawn(process.execPath, side.args, { env, cwd: project });
        if (run.code !== 0 || clock.arrivals.length < 1) throw new Error(`${side.name} failed: ${run.stderr}`);
        if (round > 0) side.first.push((clock.arrivals[0] ?? Number.NaN) - run.spawnedAt);
      }
    }
    const [baseSide, thisSide, scriptSide] = sides as [
      (typeof sides)[number],
      (typeof sides)[number],
      (typeof sides)[number],
    ];
    const ratio = (a: number[], b: number[]): number => median(a.map((value, at) => value / (b[at] ?? Number.NaN)));
    const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;
    const lines = [
      `${runs} rounds, rotating order; load average ${startLoad.toFixed(1)} at the start, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} at the end`,
      '',
      '| spawn → first request (median) | base | this | node:http script |',
      '| --- | --- | --- | --- |',
      `| ms | ${fmt(median(baseSide.first))} | ${fmt(median(thisSide.first))} | ${fmt(median(scriptSide.first))} |`,
      `| vs the script (median of per-round ratios) | ${ratio(baseSide.first, scriptSide.first).toFixed(2)}× | ${ratio(thisSide.first, scriptSide.first).toFixed(2)}× | 1.00× |`,
      `| this vs base | | ${ratio(thisSide.first, baseSide.first).toFixed(2)}× | |`,
    ];
    if (profiles > 0) {
      for (let round = 0; round < profiles; round += 1) {
        for (const side of round % 2 === 0 ? sides.slice(0, 2) : sides.slice(0, 2).reverse()) {
          const dir = join(scratch, 'profiles', side.name);
          const args = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100', ...side.args];
          const run = await timedSpawn(process.execPath, args, { env, cwd: project });
          if (run.code !== 0) throw new Error(`${side.name} (profiled) failed: ${run.stderr}`);
        }
      }
      for (const side of sides.slice(0, 2)) {
        const { perRunMs, top } = profileTop(join(scratch, 'profiles', side.name), 20);
        lines.push('', `${side.name}: ${perRunMs.toFixed(1)} ms sampled per run; inclusive per run:`, '');
        for (const { fn, ms } of top) lines.push(`    ${ms.toFixed(1).padStart(6)} ms  ${fn}`);
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    clock.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`start-ab failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
