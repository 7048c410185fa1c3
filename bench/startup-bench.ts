/**
 * Start-up bench. In one run, round-robin (one warm-up round, then `runs` rounds, so background load hits every
 * command alike), with medians reported:
 * - `node -e 0`, and a bare node:http script (bench/fixtures/node-http-request.mjs) that sends the very request
 *   mca sent for the one-shot task to the same fake server and reads its SSE stream to the end: the baselines;
 * - `mca --version`, `mca --help`;
 * - a one-shot `mca -p "Say ok."` (one model call, the answer) and an 8-step task (7 read-only tool steps on small
 *   files, then the answer): wall time, spawn → first request, the fake server's own time, peak RSS.
 * mca runs from the packed package, extracted to a temp directory with no node_modules above it. The fake server
 * is test/helpers/fake-anthropic-server.ts; its request times come from bench/lib/server-clock.ts.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakeReplyStep } from '../test/helpers/fake-anthropic-server.js';
import { ANSWER, fakeModelEnv, FINISH, MULTI_STEP, MULTI_STEP_TASK, writeProject } from './lib/startup-task.js';
import { packAndExtract, type PackageFigures } from './lib/packed-package.js';
import { watchServer } from './lib/server-clock.js';
import { median } from './lib/stats.js';
import { RSS_METHOD, timedSpawn, type RssMethod, type TimedRun } from './lib/timed-spawn.js';

/** Medians over the runs of one command. */
export interface RequestFigures {
  wallMs: number;
  /** Spawn → the fake server has the first request's headers. */
  firstRequestMs: number;
  /** The fake server's own time (reading requests, writing answers), summed over the run's requests. */
  serverMs: number;
  /** Wall − server time, the median of the per-run differences. */
  netMs: number;
  /** The last answer finished → the process exited (writing the answer, closing the session, exit waits). */
  exitMs: number;
  peakRssMb: number;
}

export interface StartupResult {
  runs: number;
  rssMethod: RssMethod;
  /** Tool steps of the multi-step task (its model calls = toolSteps + 1). */
  toolSteps: number;
  nodeMs: number;
  versionMs: number;
  helpMs: number;
  script: RequestFigures;
  oneShot: RequestFigures;
  multiStep: RequestFigures;
  /**
   * Per-step overhead: the mean over the tool steps of `stepGaps`, i.e. mca's own time per step of the
   * multi-step task, first uses of each tool included.
   */
  perStepMs: number;
  /**
   * Cross-check: (multi-step net − one-shot net) / toolSteps. Lower than `perStepMs` when the one-shot has a fixed
   * cost that the multi-step run hides behind its steps (e.g. a wait at exit for background work).
   */
  perStepByDifferenceMs: number;
  /** multi-step net / its model calls: start-up spread over the steps. */
  perStepAllInMs: number;
  /**
   * Per tool step of the multi-step task, in order: the fake server finished writing the answer that asked for the
   * tool → the next request arrived. mca's own time for the step (reading the stream's end, running the tool,
   * recording, building and sending the next request), with nothing of the server's in it.
   */
  stepGaps: Array<{ tool: string; ms: number }>;
  package: PackageFigures;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'node-http-request.mjs');
interface Samples {
  /** Per tool step: finished answer → next request. */
  gaps: number[][];
  exit: number[];
  wall: number[];
  first: number[];
  server: number[];
  net: number[];
  rss: number[];
}

const emptySamples = (): Samples => ({ gaps: [], exit: [], wall: [], first: [], server: [], net: [], rss: [] });

function figures(samples: Samples): RequestFigures {
  return {
    wallMs: median(samples.wall),
    firstRequestMs: median(samples.first),
    serverMs: median(samples.server),
    netMs: median(samples.net),
    exitMs: median(samples.exit),
    peakRssMb: median(samples.rss),
  };
}

function expectAnswer(run: TimedRun, what: string, requests: number, expectedRequests: number): void {
  if (run.code !== 0 || run.stdout.trim() !== ANSWER || requests !== expectedRequests) {
    throw new Error(
      `${what}: exit ${String(run.code)}, ${requests} request(s) (expected ${expectedRequests}), ` +
        `stdout ${JSON.stringify(run.stdout.slice(0, 200))}, stderr ${JSON.stringify(run.stderr.slice(0, 500))}`,
    );
  }
}

export async function runStartupBench(options: { runs: number; root: string }): Promise<StartupResult> {
  const node = process.execPath;
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'mca-bench-startup-')));
  const server = await startFakeAnthropic([FINISH], { loop: true });
  const clock = watchServer(Number(new URL(server.url).port));
  try {
    const pkg = packAndExtract(options.root, join(scratch, 'pack'));
    const home = join(scratch, 'home');
    const project = join(scratch, 'project');
    await writeProject(project);
    const env = fakeModelEnv(server.url, home);
    const rss = { scratch };

    /** One request-making run: the fake's script is set first, its clock read after. */
    const requestRun = async (
      samples: Samples,
      what: string,
      script: FakeReplyStep[],
      args: string[],
      record: boolean,
    ): Promise<TimedRun> => {
      server.setScript(script);
      clock.reset();
      const run = await timedSpawn(node, args, { env, cwd: project, rss });
      expectAnswer(run, what, clock.arrivals.length, script.length);
      if (record) {
        samples.wall.push(run.wallMs);
        samples.first.push((clock.arrivals[0] ?? Number.NaN) - run.spawnedAt);
        samples.server.push(clock.serverMs());
        samples.net.push(run.wallMs - clock.serverMs());
        samples.exit.push(run.spawnedAt + run.wallMs - (clock.finishes.at(-1) ?? Number.NaN));
        if (run.peakRssMb !== undefined) samples.rss.push(run.peakRssMb);
        for (let step = 0; step + 1 < clock.arrivals.length; step += 1) {
          const gap = (clock.arrivals[step + 1] ?? Number.NaN) - (clock.finishes[step] ?? Number.NaN);
          (samples.gaps[step] ??= []).push(gap);
        }
      }
      return run;
    };

    // The baseline script sends the request mca itself sends for the one-shot task.
    server.requests.length = 0;
    await requestRun(emptySamples(), 'mca -p (request capture)', [FINISH], [pkg.bin, '-p', 'Say ok.'], false);
    const body = join(scratch, 'request.json');
    await writeFile(body, JSON.stringify(server.requests[0]?.body));

    const samples = { script: emptySamples(), oneShot: emptySamples(), multiStep: emptySamples() };
    const plain = { node: [] as number[], version: [] as number[], help: [] as number[] };
    for (let round = 0; round <= options.runs; round += 1) {
      const record = round > 0; // round 0 warms the file cache and the fake server
      const time = async (list: number[], args: string[]) => {
        const run = await timedSpawn(node, args, { env, cwd: project });
        if (run.code !== 0) throw new Error(`node ${args.join(' ')}: exit ${String(run.code)}: ${run.stderr}`);
        if (record) list.push(run.wallMs);
      };
      await time(plain.node, ['-e', '0']);
      await requestRun(samples.script, 'node-http-request.mjs', [FINISH], [SCRIPT, body], record);
      await time(plain.version, [pkg.bin, '--version']);
      await time(plain.help, [pkg.bin, '--help']);
      await requestRun(samples.oneShot, 'mca -p (one-shot)', [FINISH], [pkg.bin, '-p', 'Say ok.'], record);
      const task = [pkg.bin, '-p', MULTI_STEP_TASK];
      await requestRun(samples.multiStep, 'mca -p (8 steps)', MULTI_STEP, task, record);
    }
    const oneShot = figures(samples.oneShot);
    const multiStep = figures(samples.multiStep);
    const toolSteps = MULTI_STEP.length - 1;
    const stepGaps = samples.multiStep.gaps.map((gaps, step) => ({
      tool: /Action: (\w+)\[/.exec(MULTI_STEP[step]?.text ?? '')?.[1] ?? '?',
      ms: median(gaps),
    }));
    return {
      runs: options.runs,
      rssMethod: RSS_METHOD,
      toolSteps,
      nodeMs: median(plain.node),
      versionMs: median(plain.version),
      helpMs: median(plain.help),
      script: figures(samples.script),
      oneShot,
      multiStep,
      perStepMs: stepGaps.reduce((sum, gap) => sum + gap.ms, 0) / stepGaps.length,
      perStepByDifferenceMs: (multiStep.netMs - oneShot.netMs) / toolSteps,
      perStepAllInMs: multiStep.netMs / MULTI_STEP.length,
      stepGaps,
      package: {
        packedBytes: pkg.packedBytes,
        unpackedBytes: pkg.unpackedBytes,
        files: pkg.files,
        dependencies: pkg.dependencies,
      },
    };
  } finally {
    clock.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
