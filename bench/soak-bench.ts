/**
 * `npx tsx bench/soak-bench.ts [--steps N] [--files F] [--kb K] [--turns T] [--window TOKENS]`: one long `mca -p`
 * turn (or T turns of one process through stream-json input, N/T steps each) of the built binary (or SOAK_MCA)
 * against the loopback fake, which reports the usage a real API would (4 characters a token): N steps (default 1,000, mca's most: N − 1 Read calls, then the answer) over F files of K kB (default 50 × 5 kB, so
 * about 5 MB of tool output, enough for several compactions in the default window), then the answer. Summary
 * requests (compaction) get a short summary. At every request the fake's step samples the mca process from /proc:
 * resident memory (VmRSS), open file descriptors, child processes. Per step: the answer asking for the tool
 * finished → the next request arrived (mca's own time for the step, bench/lib/server-clock.ts). Prints the mean
 * step time of the first and last 100 steps, RSS at step 100, at the end and its peak, fds and children at step
 * 100 and at the end; `--series` adds every 50th sample, `--cpu-prof-dir DIR` writes mca's CPU profile there,
 * `--node-option=FLAG` passes a flag to mca's Node, `--heap-snapshots-dir DIR --heap-snapshot-at 100,999` writes V8
 * heap snapshots of mca at those steps (the signal is sent as the request arrives; the snapshot is taken before the
 * step's work). A
 * measurement aid: it asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakePlainStep, type FakeRequestBody } from '../test/helpers/fake-anthropic-server.js';
import { isSummaryRequest } from '../test/e2e/support/agent-script.js';
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
  /** mca's CPU time so far (user + system, from /proc/<pid>/stat, 10 ms ticks), ms. */
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
    // Fields 14 and 15 of stat (after the command name in parentheses): user and system time in clock ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    const fds = readdirSync(`/proc/${pid}/fd`).length;
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
  /** Steps of the current turn; `--turns T` splits the steps over T turns of one process (stream-json input). */
  let turnSteps = 0;
  const turns = option('--turns', 1);
  const perTurn = Math.ceil(steps / turns);
  let summaries = 0;
  const samples: Sample[] = [];
  const toolStep = (index: number): FakePlainStep => ({
    text: 'reading',
    calls: [{ name: 'Read', input: { path: `f${index % fileCount}.txt` } }],
  });
  const fake = await startFakeAnthropic(
    [
      (body: FakeRequestBody): FakePlainStep => {
        // The fake keeps every request; this bench reads none of them, so they are dropped as they come.
        fake.requests.splice(0);
        if (isSummaryRequest(body)) {
          summaries += 1;
          return { text: '## 📌 Archived Session Summary\n\nRead files f0..f49 in turn; nothing else happened.' };
        }
        agentSteps += 1;
        turnSteps += 1;
        const chars = JSON.stringify(body).length;
        samples.push(sample(pid, agentSteps, chars));
        if (snapshotSteps.includes(agentSteps)) process.kill(pid, 'SIGUSR2');
        // The usage a real API would report (about 4 characters a token), so mca's budget sees the prompt grow and
        // compacts where it would against the real model.
        const usage = { input_tokens: Math.round(chars / 4), output_tokens: 20 };
        // Model calls per turn: Read calls, then the answer (mca allows at most 1,000 steps in one turn).
        if (turnSteps < perTurn && agentSteps < steps) return { ...toolStep(agentSteps), usage };
        turnSteps = 0;
        return { text: 'ok', usage };
      },
    ],
    { loop: true },
  );
  const clock = watchServer(Number(new URL(fake.url).port));
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  const profileAt = process.argv.indexOf('--cpu-prof-dir');
  const profile = profileAt < 0 ? [] : ['--cpu-prof', '--cpu-prof-dir', process.argv[profileAt + 1] ?? '.'];
  // `--heap-snapshots-dir DIR --heap-snapshot-at 100,1000`: V8 heap snapshots of mca at those steps (what is retained).
  const snapshotDirAt = process.argv.indexOf('--heap-snapshots-dir');
  if (snapshotDirAt >= 0)
    profile.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.argv[snapshotDirAt + 1] ?? '.'}`);
  // `--node-option=--max-old-space-size=64` (repeatable): a flag for mca's Node (is a growth garbage or retained?).
  profile.push(...process.argv.filter((arg) => arg.startsWith('--node-option=')).map((arg) => arg.slice(14)));
  const child = spawn(
    process.execPath,
    [
      ...profile,
      resolve(process.env.SOAK_MCA ?? join(root, 'dist', 'cli', 'mca.cjs')),
      '-p',
      ...(turns > 1
        ? ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']
        : ['Read every file, in turn.']),
      '--max-steps',
      String(perTurn),
    ],
    {
      cwd: project,
      env: childEnv({
        ANTHROPIC_API_KEY: 'sk-ant-bench-soak',
        ANTHROPIC_BASE_URL: fake.url,
        MCA_HOME: home,
        HOME: home,
        ...(option('--window', 0) > 0 ? { MCA_CONTEXT_WINDOW: String(option('--window', 0)) } : {}),
      }),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  pid = child.pid ?? 0;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // Several turns: one user message at a time on stdin, the next when the previous turn's result line is out.
  let sent = 0;
  const sendTurn = () => {
    sent += 1;
    const message = { type: 'user', message: { role: 'user', content: `Turn ${sent}: read every file, in turn.` } };
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (turns <= 1) return;
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      if (!text.startsWith('{"type":"result"')) continue;
      if (sent < turns) sendTurn();
      else child.stdin.end();
    }
  });
  if (turns > 1) sendTurn();
  else child.stdin.end();
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = performance.now() - started;
  // Per step: the answer before it finished → this request arrived (agent and summary requests alike, in order).
  const gaps: number[] = [];
  for (let i = 1; i < clock.arrivals.length; i += 1) {
    const finished = clock.finishes[i - 1];
    const arrived = clock.arrivals[i];
    if (finished !== undefined && arrived !== undefined) gaps.push(arrived - finished);
  }
  clock.close();
  await fake.close();
  if (code !== 0) throw new Error(`mca exited ${code}: ${stderr.slice(-2000)}`);
  const at100 = samples.find((entry) => entry.step === 100) ?? samples[0];
  const last = samples.at(-1);
  const peakKb = Math.max(...samples.map((entry) => entry.rssKb));
  // CPU per step over a window of samples: what the load on a shared machine does not stretch.
  const cpuPerStep = (from: Sample | undefined, to: Sample | undefined) =>
    from && to && to.step > from.step ? (to.cpuMs - from.cpuMs) / (to.step - from.step) : 0;
  const cpuFirst = cpuPerStep(samples[0], samples[100]);
  const cpuLast = cpuPerStep(samples.at(-101), samples.at(-1));
  const first100 = mean(gaps.slice(0, 100));
  const last100 = mean(gaps.slice(-100));
  const kChars = (chars: number | undefined) => `${Math.round((chars ?? 0) / 1000)}k chars`;
  const mb = (kbValue: number | undefined) => `${((kbValue ?? 0) / 1024).toFixed(1)} MB`;
  console.log(
    [
      `soak: ${steps} steps in ${turns} turn(s) (${steps - turns} Reads) over ${fileCount} files of ${kb} kB, ${summaries} summary requests (compactions), ` +
        `${clock.arrivals.length} requests; wall ${(wallMs / 1000).toFixed(1)} s; 1-minute load at start ${load.toFixed(1)}`,
      '',
      '| figure | value |',
      '| --- | --- |',
      `| mean step, first 100 steps | ${first100.toFixed(2)} ms |`,
      `| mean step, last 100 steps | ${last100.toFixed(2)} ms |`,
      `| last 100 / first 100 | ${(last100 / first100).toFixed(2)}× |`,
      `| mca CPU per step, steps 1–100 → last 100 | ${cpuFirst.toFixed(2)} → ${cpuLast.toFixed(2)} ms (${(cpuLast / Math.max(cpuFirst, 0.01)).toFixed(2)}×) |`,
      `| RSS at step 100 | ${mb(at100?.rssKb)} |`,
      `| RSS at the last step | ${mb(last?.rssKb)} |`,
      `| RSS, largest sample | ${mb(peakKb)} |`,
      `| RSS last / step 100 | ${((last?.rssKb ?? 0) / Math.max(1, at100?.rssKb ?? 1)).toFixed(2)}× |`,
      `| request body at step 100 → last step | ${kChars(at100?.requestChars)} → ${kChars(last?.requestChars)} |`,
      `| open fds at step 100 → last step | ${at100?.fds ?? 0} → ${last?.fds ?? 0} |`,
      `| child processes at step 100 → last step | ${at100?.children ?? 0} → ${last?.children ?? 0} |`,
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
