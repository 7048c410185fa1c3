/**
 * `npx tsx bench/soak-bench.ts [--steps N] [--files F] [--kb K] [--turns T] [--window TOKENS]`: one long `mca -p`
 * turn of the built binary (dist/, or the file SOAK_MCA names) against the loopback fake: N steps (default 1,000, mca's most: N − 1 Read calls, then the answer) over F files of K kB (default 50 × 5 kB, so
 * about 5 MB of tool output, enough for several compactions in the default window), then the answer. Summary
 * requests (compaction) get a short summary. At every request the fake's step samples the mca process from /proc:
 * resident memory (VmRSS), open file descriptors, child processes. Per step: the answer asking for the tool
 * finished → the next request arrived (mca's own time for the step, bench/lib/server-clock.ts). Prints the mean
 * step time of the first and last 100 steps, RSS at step 100, at the end and its peak, fds and children at step
 * 100 and at the end; `--series` adds every 50th sample, `--cpu-prof-dir DIR` writes mca's CPU profile there,
 * `--node-option=FLAG` passes a flag to mca's Node, `--heap-snapshots-dir DIR --heap-snapshot-at 100,999` writes V8
 * heap snapshots of mca at those steps (the signal is sent as the request arrives; the snapshot is taken before the
 * step's work), `--window TOKENS` sets mca's context window. `--program claude-code` plays the same turn through Claude
 * Code's native binary instead. The fake reports input tokens as the request's characters / 4 (what a program
 * that compacts on the API's usage needs to see), the Read calls use each program's own tool parameters
 * (bench/peers/tool-map.ts), and after the exit the processes still running in the project folder are counted. A
 * measurement aid: it asserts nothing. `--turns T` splits the steps into T prompts of one session (stream-json in and
 * out: the next prompt goes when the last one's result line comes), so closed rounds exist and can be compacted.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakePlainStep, type FakeRequestBody } from '../test/helpers/fake-anthropic-server.js';
import { isSummaryRequest } from '../test/e2e/support/agent-script.js';
import { userText } from '../test/helpers/fake-anthropic-steps.js';
import { declaredTools } from './peers/fake-apis.js';
import { isAgentRequest, mapStep } from './peers/tool-map.js';
import { watchServer } from './lib/server-clock.js';
import { childEnv } from './lib/startup-task.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? Number.NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

interface Sample {
  /** Agent requests seen so far (the step number). */
  step: number;
  rssKb: number;
  /** The process's CPU time so far (user + system, from /proc/<pid>/stat, 10 ms ticks), ms. */
  cpuMs: number;
  /** Characters of the request's JSON body (what the model is sent at this step). */
  requestChars: number;
  fds: number;
  children: number;
}

/** RSS, open fds and child processes of `pid` from /proc (zeros when it is gone). */
function sample(pid: number, step: number, requestChars: number): Sample {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    // Fields 14 and 15 of stat (after the command name in parentheses): user and system time in clock ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    let children = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      children += list === '' ? 0 : list.split(/\s+/).length;
    }
    return { step, rssKb, cpuMs, requestChars, fds, children };
  } catch {
    return { step, rssKb: 0, cpuMs: 0, requestChars, fds: 0, children: 0 };
  }
}

/** Processes (other than this one) whose working directory is inside `folder`: what a program left running. */
function processesIn(folder: string): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(folder)) count += 1;
    } catch {
      // ended, or not ours to read
    }
  }
  return count;
}

const CLAUDE = join(root, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');

/** A compaction request: mca's archive request or Claude Code's "summary of the conversation" request. */
function isCompaction(body: FakeRequestBody): boolean {
  return isSummaryRequest(body) || /detailed summary of the conversation/i.test(userText(body));
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

async function main(): Promise<void> {
  const steps = Math.min(1000, option('--steps', 1000));
  const fileCount = option('--files', 50);
  const kb = option('--kb', 5);
  const project = await realpath(await mkdtemp(join(tmpdir(), 'mca-soak-')));
  const home = join(project, '.home');
  mkdirSync(home, { recursive: true });
  const line = `${'x'.repeat(63)}\n`;
  for (let i = 0; i < fileCount; i += 1) writeFileSync(join(project, `f${i}.txt`), line.repeat(kb * 16));

  let pid = 0;
  const snapshotAt = process.argv.indexOf('--heap-snapshot-at');
  const snapshotSteps =
    process.argv.includes('--heap-snapshots-dir') && snapshotAt >= 0
      ? (process.argv[snapshotAt + 1] ?? '').split(',').map(Number)
      : [];
  let agentSteps = 0;
  let summaries = 0;
  const samples: Sample[] = [];
  const claudeCode = process.argv.includes('--program') && process.argv.includes('claude-code');
  const turns = option('--turns', 1);
  const perTurn = Math.max(1, Math.floor(steps / turns));
  // Usage as the real API reports it (about 4 characters a token), so a program that compacts on it does.
  const usage = (body: FakeRequestBody) => ({
    input_tokens: Math.round(JSON.stringify(body).length / 4),
    output_tokens: 20,
  });
  const toolStep = (body: FakeRequestBody, index: number): FakePlainStep => {
    const call = mapStep(
      { read: `f${index % fileCount}.txt` },
      declaredTools('anthropic', body as unknown as Record<string, unknown>),
      project,
    );
    return {
      text: 'reading',
      calls: [{ name: call.name, input: call.input as Record<string, unknown> }],
      usage: usage(body),
    };
  };
  const fake = await startFakeAnthropic(
    [
      (body: FakeRequestBody): FakePlainStep => {
        // The fake keeps every request; this bench reads none of them, so they are dropped as they come.
        fake.requests.splice(0);
        if (isCompaction(body)) {
          summaries += 1;
          return { text: '## 📌 Archived Session Summary\n\nRead files f0..f49 in turn; nothing else happened.' };
        }
        // Side queries (titles, quota probes) offer no tools: a short text, not a step.
        if (!isAgentRequest(declaredTools('anthropic', body as unknown as Record<string, unknown>)))
          return { text: 'ok' };
        agentSteps += 1;
        samples.push(sample(pid, agentSteps, JSON.stringify(body).length));
        if (snapshotSteps.includes(agentSteps)) process.kill(pid, 'SIGUSR2');
        // Model calls: per turn, Read calls, then the answer (mca allows at most 1,000 steps in one turn).
        const answer = agentSteps % perTurn === 0 || agentSteps >= steps;
        return answer ? { text: 'ok', usage: usage(body) } : toolStep(body, agentSteps);
      },
    ],
    { loop: true },
  );
  const clock = watchServer(Number(new URL(fake.url).port));
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  const profileAt = process.argv.indexOf('--cpu-prof-dir');
  const profile = profileAt < 0 ? [] : ['--cpu-prof', '--cpu-prof-dir', process.argv[profileAt + 1] ?? '.'];
  // `--node-option=--max-old-space-size=64` (repeatable): a flag for mca's Node (is a growth garbage or retained?).
  // `--heap-snapshots-dir DIR --heap-snapshot-at 100,1000`: V8 heap snapshots of mca at those steps (what is retained).
  const snapshotDirAt = process.argv.indexOf('--heap-snapshots-dir');
  if (snapshotDirAt >= 0)
    profile.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.argv[snapshotDirAt + 1] ?? '.'}`);
  profile.push(...process.argv.filter((arg) => arg.startsWith('--node-option=')).map((arg) => arg.slice(14)));
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-bench-soak',
    ANTHROPIC_BASE_URL: fake.url,
    MCA_HOME: home,
    HOME: home,
    ...(option('--window', 0) > 0 ? { MCA_CONTEXT_WINDOW: String(option('--window', 0)) } : {}),
  };
  const prompt = 'Read every file, in turn.';
  // One prompt as an argument, or T prompts as stream-json lines on stdin.
  const session =
    turns > 1 ? ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'] : [prompt];
  const stdin = turns > 1 ? 'pipe' : 'ignore';
  const child = claudeCode
    ? spawn(CLAUDE, ['-p', '--permission-mode', 'bypassPermissions', '--model', 'claude-sonnet-4-5', ...session], {
        cwd: project,
        // bypassPermissions is refused to root unless the process says it runs in a sandbox (a throwaway folder).
        env: childEnv({
          ...env,
          IS_SANDBOX: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        }),
        stdio: [stdin, 'pipe', 'pipe'],
      })
    : spawn(
        process.execPath,
        [
          ...profile,
          resolve(process.env.SOAK_MCA ?? join(root, 'dist', 'cli', 'mca.cjs')),
          '-p',
          ...session,
          '--max-steps',
          String(perTurn),
        ],
        { cwd: project, env: childEnv(env), stdio: [stdin, 'pipe', 'pipe'] },
      );
  pid = child.pid ?? 0;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let results = 0;
  const say = (): void => {
    child.stdin?.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  };
  if (turns > 1) say();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    if (turns <= 1) return;
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // Claude Code's result line does not start with its type: the line is parsed.
      if (!line.includes('"result"') || (JSON.parse(line) as { type?: string }).type !== 'result') continue;
      results += 1;
      if (results < turns) say();
      else child.stdin?.end();
    }
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = performance.now() - started;
  const left = processesIn(project);
  // Per step: the answer before it finished → this request arrived (agent and summary requests alike, in order).
  const gaps: number[] = [];
  for (let i = 1; i < clock.arrivals.length; i += 1) {
    const finished = clock.finishes[i - 1];
    const arrived = clock.arrivals[i];
    if (finished !== undefined && arrived !== undefined) gaps.push(arrived - finished);
  }
  clock.close();
  await fake.close();
  if (code !== 0) throw new Error(`the program exited ${code}: ${stderr.slice(-2000)}`);
  const at100 = samples.find((entry) => entry.step === 100) ?? samples[0];
  const last = samples.at(-1);
  const peakKb = Math.max(...samples.map((entry) => entry.rssKb));
  const first100 = mean(gaps.slice(0, 100));
  const last100 = mean(gaps.slice(-100));
  // CPU per step over a window of samples: what the load on a shared machine does not stretch.
  const cpuPerStep = (from: Sample | undefined, to: Sample | undefined) =>
    from && to && to.step > from.step ? (to.cpuMs - from.cpuMs) / (to.step - from.step) : 0;
  const cpuFirst = cpuPerStep(samples[0], samples[100]);
  const cpuLast = cpuPerStep(samples.at(-101), samples.at(-1));
  // A point sample lands anywhere on the collector's saw-tooth: the medians of 100 samples around step 100 and at the
  // end say whether the level grew.
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const rssEarly = median(samples.filter((entry) => entry.step > 50 && entry.step <= 150).map((entry) => entry.rssKb));
  const rssLate = median(samples.slice(-100).map((entry) => entry.rssKb));
  const kChars = (chars: number | undefined) => `${Math.round((chars ?? 0) / 1000)}k chars`;
  const mb = (kbValue: number | undefined) => `${((kbValue ?? 0) / 1024).toFixed(1)} MB`;
  console.log(
    [
      `soak (${claudeCode ? 'Claude Code' : 'mca'}): ${turns} turn(s), ${results} results, ${steps} steps (${steps - 1} Reads) over ${fileCount} files of ${kb} kB, ${summaries} summary requests (compactions), ` +
        `${clock.arrivals.length} requests; wall ${(wallMs / 1000).toFixed(1)} s; 1-minute load at start ${load.toFixed(1)}`,
      '',
      '| figure | value |',
      '| --- | --- |',
      `| mean step, first 100 steps | ${first100.toFixed(2)} ms |`,
      `| mean step, last 100 steps | ${last100.toFixed(2)} ms |`,
      `| last 100 / first 100 | ${(last100 / first100).toFixed(2)}× |`,
      `| CPU per step, steps 1–100 → last 100 | ${cpuFirst.toFixed(2)} → ${cpuLast.toFixed(2)} ms (${(cpuLast / Math.max(cpuFirst, 0.01)).toFixed(2)}×) |`,
      `| RSS at step 1 | ${mb(samples[0]?.rssKb)} |`,
      `| RSS at step 100 | ${mb(at100?.rssKb)} |`,
      `| RSS at the last step | ${mb(last?.rssKb)} |`,
      `| RSS, largest sample | ${mb(peakKb)} |`,
      `| RSS last / step 100 | ${((last?.rssKb ?? 0) / Math.max(1, at100?.rssKb ?? 1)).toFixed(2)}× |`,
      `| RSS median, steps 51–150 → last 100 steps | ${mb(rssEarly)} → ${mb(rssLate)} (${(rssLate / Math.max(1, rssEarly)).toFixed(2)}×) |`,
      `| request body at step 100 → last step | ${kChars(at100?.requestChars)} → ${kChars(last?.requestChars)} |`,
      `| open fds at step 100 → last step | ${at100?.fds ?? 0} → ${last?.fds ?? 0} |`,
      `| child processes at step 100 → last step | ${at100?.children ?? 0} → ${last?.children ?? 0} |`,
      `| processes left in the project folder after the exit | ${left} |`,
    ].join('\n'),
  );
  if (process.argv.includes('--series')) {
    for (const entry of samples.filter((_, index) => index % 50 === 0)) {
      console.log(
        `step ${entry.step}: rss ${mb(entry.rssKb)}, request ${kChars(entry.requestChars)}, gap ${(gaps[entry.step - 1] ?? 0).toFixed(1)} ms`,
      );
    }
  }
}

await main();
