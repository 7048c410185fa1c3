/**
 * `npm run bench:many [-- --ns 1,5,10,20] [--min-tasks 10] [--only mca|claude-code]`: many agents on one machine.
 * For each N, N `-p` tasks start at once, each in its own copy of a small project with its own loopback fake model
 * (one server per task in this process, so no task waits on another's script): 4 tool steps (Glob, Read, Grep,
 * Bash `ls`) and the answer. Per task: wall ms from spawn to exit. While a round runs, every 100 ms the process
 * trees of its tasks are read from /proc and their VmRSS summed; the round's peak is the largest sum. Rounds repeat
 * until at least `--min-tasks` tasks ran for that N (N = 1: 10 rounds), mca and Claude Code's native binary
 * alternating round by round. A measurement aid: it asserts nothing. The 1,000-step soak is bench/soak-bench.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type FakePlainStep,
  type FakeRequestBody,
} from '../test/helpers/fake-anthropic-server.js';
import { machine } from './lib/machine.js';
import { treeRssKb } from './lib/proc-tree.js';
import { childEnv, writeProject } from './lib/startup-task.js';
import { percentile } from './lib/stats.js';
import { declaredTools } from './peers/fake-apis.js';
import type { ToolStep } from './peers/script.js';
import { isAgentRequest, mapStep } from './peers/tool-map.js';

// Loopback only: a proxy set on the machine must not carry (nor time) the requests.
for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) delete process.env[name];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLAUDE = join(root, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');
const PROMPT = 'Look around the project, list src, then say ok.';
const KEY = 'sk-ant-bench-many';

interface Program {
  name: string;
  argv: string[];
  env(url: string, home: string): NodeJS.ProcessEnv;
}

const PROGRAMS: Program[] = [
  {
    name: 'mca',
    argv: [process.execPath, join(root, 'dist/cli/mca.cjs'), '-p', '--permission-mode', 'bypassPermissions', PROMPT],
    env: (url, home) => childEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url, MCA_HOME: home, HOME: home }),
  },
  {
    name: 'claude-code',
    argv: [CLAUDE, '-p', '--permission-mode', 'bypassPermissions', '--model', 'claude-sonnet-4-5', PROMPT],
    env: (url, home) =>
      childEnv({
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: url,
        HOME: home,
        // bypassPermissions is refused to root unless the process says it runs in a sandbox (a throwaway copy).
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      }),
  },
];

/** The steps every task plays, mapped to each program's own tool names and parameters (bench/peers/tool-map.ts). */
const STEPS: ToolStep[] = [
  { bash: 'ls', say: 'Looking.' },
  { read: 'src/math.ts', say: 'Reading.' },
  { grep: 'export function', in: 'src', say: 'Searching.' },
  { bash: 'ls src', say: 'Listing.' },
];

interface Task {
  project: string;
  fake: FakeAnthropic;
  played: () => number;
}

async function prepareTask(): Promise<Task> {
  const project = await realpath(await mkdtemp(join(tmpdir(), 'mca-many-')));
  await writeProject(project);
  mkdirSync(join(project, '.home'), { recursive: true });
  let cursor = 0;
  const fake = await startFakeAnthropic(
    [
      (body: FakeRequestBody): FakePlainStep => {
        fake.requests.splice(0);
        const tools = declaredTools('anthropic', body as unknown as Record<string, unknown>);
        if (!isAgentRequest(tools)) return { text: 'ok' };
        const step = STEPS[cursor++];
        if (step === undefined) return { text: 'ok' };
        const call = mapStep(step, tools, project);
        return { text: call.say, calls: [{ name: call.name, input: call.input as Record<string, unknown> }] };
      },
    ],
    { loop: true },
  );
  return { project, fake, played: () => cursor };
}

interface Round {
  walls: number[];
  peakRssKb: number;
  /** Tasks that exited non-zero or did not play the whole script. */
  failures: string[];
}

async function runRound(program: Program, n: number): Promise<Round> {
  const tasks = await Promise.all(Array.from({ length: n }, () => prepareTask()));
  const pids: number[] = [];
  let peakRssKb = 0;
  const sampler = setInterval(() => (peakRssKb = Math.max(peakRssKb, treeRssKb(pids))), 100);
  const failures: string[] = [];
  const walls = await Promise.all(
    tasks.map(async (task) => {
      const [command, ...args] = program.argv as [string, ...string[]];
      const started = performance.now();
      const child = spawn(command, args, {
        cwd: task.project,
        env: program.env(task.fake.url, join(task.project, '.home')),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      if (child.pid !== undefined) pids.push(child.pid);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      const wall = performance.now() - started;
      if (code !== 0 || task.played() <= STEPS.length)
        failures.push(`exit ${code}, ${task.played()} steps: ${output.slice(-300)}`);
      return wall;
    }),
  );
  clearInterval(sampler);
  await Promise.all(tasks.map((task) => task.fake.close()));
  await Promise.all(tasks.map((task) => rm(task.project, { recursive: true, force: true })));
  return { walls, peakRssKb, failures };
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const ns = (option('--ns') ?? '1,5,10,20').split(',').map(Number);
  const minTasks = Number(option('--min-tasks') ?? 10);
  const only = option('--only');
  const programs = PROGRAMS.filter((program) => only === undefined || only.split(',').includes(program.name));
  const missing = programs.filter((program) => program.name !== 'mca' && !existsSync(program.argv[0] as string));
  for (const program of missing) console.log(`${program.name}: ${program.argv[0]} missing, skipped`);
  const runnable = programs.filter((program) => !missing.includes(program));
  const host = machine();
  console.log(`${host.cpu}, ${host.cores} cores, ${host.memoryGb} GB, Node ${host.node}, load ${host.load}`);
  const rows: string[] = [];
  for (const n of ns) {
    const rounds = Math.max(1, Math.ceil(minTasks / n));
    const results = new Map<string, Round[]>(runnable.map((program) => [program.name, []]));
    const loads: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which program goes first, round by round.
      const order = round % 2 === 0 ? runnable : [...runnable].reverse();
      for (const program of order) {
        loads.push(loadavg()[0] ?? 0);
        results.get(program.name)?.push(await runRound(program, n));
      }
    }
    for (const program of runnable) {
      const done = results.get(program.name) ?? [];
      const walls = done.flatMap((entry) => entry.walls);
      const peaks = done.map((entry) => entry.peakRssKb);
      const failures = done.flatMap((entry) => entry.failures);
      for (const failure of failures.slice(0, 3)) console.log(`${program.name} N=${n} failed: ${failure}`);
      const mb = (kb: number): string => (kb / 1024).toFixed(0);
      rows.push(
        `| ${program.name} | ${n} | ${walls.length} | ${percentile(walls, 50).toFixed(0)} | ${percentile(walls, 95).toFixed(0)} | ` +
          `${mb(percentile(peaks, 50))} | ${mb(Math.max(...peaks))} | ${failures.length} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`,
      );
      console.log(rows.at(-1));
    }
  }
  console.log(
    [
      '',
      '| program | N at once | tasks | wall p50 (ms) | wall p95 (ms) | peak RSS, all N (MB, median round) | largest (MB) | failed | load |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...rows,
    ].join('\n'),
  );
}

await main();
