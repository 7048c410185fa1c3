/**
 * Start-up bench: `mca --version`, `mca --help`, and a one-step `mca -p` task against the loopback fake
 * Anthropic server (test/helpers/fake-anthropic-server.ts), next to `node -e 0` in the same run. Each command is
 * spawned `runs` times (after one warm-up round), round-robin with `node -e 0`; medians are reported.
 *
 * - Time to first request: from spawn until the fake server has read the POST /v1/messages body.
 * - Peak RSS of `-p`: `/usr/bin/time -v` "Maximum resident set size" when that binary exists; otherwise the
 *   child's VmHWM from /proc/<pid>/status, sampled every 5 ms until it exits (may miss a final spike).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { median } from './lib/stats.js';

export interface StartupResult {
  runs: number;
  nodeMs: number;
  versionMs: number;
  helpMs: number;
  printFirstRequestMs: number;
  printTotalMs: number;
  printPeakRssMb: number;
  rssMethod: 'time -v' | 'VmHWM';
  printExitCodes: number[];
}

const TIME_BIN = '/usr/bin/time';

interface RunOutcome {
  wallMs: number;
  code: number | null;
  stderr: string;
  peakRssKb?: number;
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; measureRss?: boolean; onSpawn?: (at: number) => void },
): Promise<RunOutcome> {
  const useTime = options.measureRss === true && existsSync(TIME_BIN);
  const [bin, argv] = useTime ? [TIME_BIN, ['-v', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(bin, argv, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.onSpawn?.(started);
    let stderr = '';
    let peak: number | undefined;
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const sampler =
      options.measureRss === true && !useTime && child.pid !== undefined
        ? setInterval(() => {
            const now = vmHwmKb(child.pid ?? 0);
            if (now !== undefined) peak = Math.max(peak ?? 0, now);
          }, 5)
        : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (sampler) clearInterval(sampler);
      if (useTime) {
        const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        if (match) peak = Number(match[1]);
      }
      resolve({ wallMs, code, stderr, ...(peak !== undefined ? { peakRssKb: peak } : {}) });
    });
  });
}

/**
 * Runs several commands round-robin (one warm-up round, then `runs` rounds) so that background load hits each
 * of them alike; returns the median wall time of each.
 */
async function interleavedMedians(runs: number, commands: ReadonlyArray<() => Promise<RunOutcome>>): Promise<number[]> {
  const samples: number[][] = commands.map(() => []);
  for (let round = 0; round <= runs; round += 1) {
    for (const [index, once] of commands.entries()) {
      const outcome = await once();
      if (round > 0) samples[index]?.push(outcome.wallMs);
    }
  }
  return samples.map((values) => median(values));
}

export async function runStartupBench(options: { runs: number; mainJs: string }): Promise<StartupResult> {
  const node = process.execPath;
  const home = await mkdtemp(join(tmpdir(), 'mca-bench-home-'));
  const project = await mkdtemp(join(tmpdir(), 'mca-bench-project-'));
  let spawnedAt = 0;
  let requestAt: number | undefined;
  const server = await startFakeAnthropic(
    [
      () => {
        requestAt ??= performance.now();
        return {
          text: 'Thought: nothing to do.\nAction: Finish[ok]',
          usage: { input_tokens: 2000, output_tokens: 12 },
        };
      },
    ],
    { loop: true },
  );
  try {
    const env = {
      ...process.env,
      ANTHROPIC_API_KEY: 'bench-key',
      ANTHROPIC_BASE_URL: server.url,
      MCA_HOME: home,
      NO_COLOR: '1',
    };
    const [nodeMs = NaN, versionMs = NaN, helpMs = NaN] = await interleavedMedians(options.runs, [
      () => run(node, ['-e', '0'], {}),
      () => run(node, [options.mainJs, '--version'], { env }),
      () => run(node, [options.mainJs, '--help'], { env }),
    ]);
    const first: number[] = [];
    const total: number[] = [];
    const rss: number[] = [];
    const codes: number[] = [];
    for (let index = 0; index <= options.runs; index += 1) {
      requestAt = undefined;
      const outcome = await run(node, [options.mainJs, '-p', 'Say ok.'], {
        env,
        cwd: project,
        measureRss: true,
        onSpawn: (at) => (spawnedAt = at),
      });
      if (index === 0) continue; // warm-up
      codes.push(outcome.code ?? -1);
      total.push(outcome.wallMs);
      if (requestAt !== undefined) first.push(requestAt - spawnedAt);
      if (outcome.peakRssKb !== undefined) rss.push(outcome.peakRssKb / 1024);
    }
    return {
      runs: options.runs,
      nodeMs,
      versionMs,
      helpMs,
      printFirstRequestMs: median(first),
      printTotalMs: median(total),
      printPeakRssMb: median(rss),
      rssMethod: existsSync(TIME_BIN) ? 'time -v' : 'VmHWM',
      printExitCodes: codes,
    };
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  }
}
