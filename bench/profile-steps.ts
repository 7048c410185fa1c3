/**
 * `npm run bench:profile [-- --top N]`: where mca's time goes, step by step. Runs the start-up bench's
 * 8-step task (bench/lib/startup-task.ts) once from the packed package under `node --cpu-prof` against the fake
 * server, and prints one block per window: start-up (spawn → first request), each tool step (the answer asking for
 * the tool finished → the next request arrived: mca's own time for the step) and exit (last answer → exit), with
 * the window's wall time and its functions by inclusive sampled time (the exit window also holds Node writing the
 * profile). The profile is kept in
 * bench/results/steps.cpuprofile (git-ignored) for Chrome DevTools. A measurement aid: it asserts nothing.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { ensureBuild } from './lib/ensure-build.js';
import { packAndExtract } from './lib/packed-package.js';
import { profileWindows, type CpuProfile, type ProfileWindow } from './lib/profile-windows.js';
import { watchServer } from './lib/server-clock.js';
import { fakeModelEnv, MULTI_STEP, MULTI_STEP_TASK, writeProject } from './lib/startup-task.js';
import { timedSpawn } from './lib/timed-spawn.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** performance.now() (ms) → the monotonic clock of process.hrtime and of V8's profile timestamps (µs). */
function monotonicUs(): (performanceMs: number) => number {
  const offsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  return (performanceMs) => performanceMs * 1000 + offsetUs;
}

function parseTop(argv: readonly string[]): number {
  const at = argv.indexOf('--top');
  if (at < 0) return 12;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write('profile-steps: --top needs a whole number, 1 or more\n');
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const top = parseTop(process.argv.slice(2));
  ensureBuild(root, (line) => process.stdout.write(`${line}\n`));
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'mca-profile-steps-')));
  const server = await startFakeAnthropic(MULTI_STEP);
  const clock = watchServer(Number(new URL(server.url).port));
  try {
    const pkg = packAndExtract(root, join(scratch, 'pack'));
    const project = join(scratch, 'project');
    await writeProject(project);
    const env = fakeModelEnv(server.url, join(scratch, 'home'));
    const profileDir = join(scratch, 'profile');
    const args = ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '250'];
    const run = await timedSpawn(process.execPath, [...args, pkg.bin, '-p', MULTI_STEP_TASK], { env, cwd: project });
    if (run.code !== 0 || clock.arrivals.length !== MULTI_STEP.length) {
      throw new Error(`mca exited ${String(run.code)} after ${clock.arrivals.length} requests: ${run.stderr}`);
    }
    const toUs = monotonicUs();
    const windows: ProfileWindow[] = [
      { name: 'start-up: spawn → first request', fromUs: toUs(run.spawnedAt), toUs: toUs(clock.arrivals[0] ?? 0) },
      ...MULTI_STEP.slice(0, -1).map((step, index) => ({
        name: `step ${index + 1}, ${/Action: (\w+)\[/.exec(step.text)?.[1] ?? '?'}: answer → next request`,
        fromUs: toUs(clock.finishes[index] ?? 0),
        toUs: toUs(clock.arrivals[index + 1] ?? 0),
      })),
      {
        name: 'exit: last answer → exit',
        fromUs: toUs(clock.finishes.at(-1) ?? 0),
        toUs: toUs(run.spawnedAt + run.wallMs),
      },
    ];
    const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('node wrote no .cpuprofile');
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
    for (const window of profileWindows(profile, windows, top)) {
      process.stdout.write(
        `\n${window.name}: ${window.wallMs.toFixed(1)} ms (sampled ${window.sampledMs.toFixed(1)})\n`,
      );
      for (const entry of window.top) process.stdout.write(`  ${entry.ms.toFixed(1).padStart(7)} ms  ${entry.fn}\n`);
    }
    const kept = join(root, 'bench', 'results', 'steps.cpuprofile');
    mkdirSync(dirname(kept), { recursive: true });
    copyFileSync(join(profileDir, file), kept);
    process.stdout.write(`\nwall ${run.wallMs.toFixed(1)} ms; profile kept in ${kept}\n`);
  } finally {
    clock.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`profile-steps failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
