/**
 * `npx tsx bench/hooks-bench.ts [--runs N]`: what hooks add per tool call.
 * 1. The engine alone: the PreToolUse hooks of one Bash call (a `sh -c` spawn per distinct command) for no hook
 *    configured (the session has no engine), one hook that exits 0, one that reads its stdin and answers JSON, and
 *    three such hooks in parallel.
 * 2. Through the built binary: `mca -p` runs the start-up bench's 7 read-only tool steps against the fake server,
 *    with no hook, with one PreToolUse hook (`exit 0`) and with a PreToolUse and a PostToolUse hook; mca's own
 *    time per step is "answer finished → next request arrived" (bench/lib/server-clock.ts), median over all steps
 *    of all runs.
 * Prints median, p95 and min in milliseconds. Measures only; asserts nothing.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookCommand } from '../src/hooks/hook-config.js';
import { HookEngine } from '../src/hooks/hook-engine.js';
import { SessionHooks } from '../src/hooks/session-hooks.js';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic } from '../test/helpers/fake-anthropic-server.js';
import { ensureBuild } from './lib/ensure-build.js';
import { machine } from './lib/machine.js';
import { watchServer } from './lib/server-clock.js';
import { fakeModelEnv, MULTI_STEP, MULTI_STEP_TASK, writeProject } from './lib/startup-task.js';
import { median, percentile } from './lib/stats.js';
import { timedSpawn } from './lib/timed-spawn.js';
import { timeRuns, type Timing } from './lib/timing.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const INFO = { sessionId: 'bench', transcriptPath: '/dev/null', cwd: '/', permissionMode: 'default' };
const CALL = {
  id: 'toolu_bench',
  name: 'Bash',
  input: { command: 'npm test', timeout_ms: 120000 },
  source: 'model' as const,
};

function hook(command: string): HookCommand {
  return {
    event: 'PreToolUse',
    matcher: 'Bash',
    command,
    timeoutSec: 60,
    source: 'bench',
    scope: 'user',
    key: 'bench',
  };
}

function sessionHooks(root: string, commands: string[]): SessionHooks {
  const engine = commands.length > 0 ? new HookEngine(commands.map(hook), { projectRoot: root }) : undefined;
  const loaded = { active: commands.map(hook), pending: [], notices: [] };
  return new SessionHooks(
    loaded,
    engine,
    () => INFO,
    () => undefined,
  );
}

function row(name: string, timing: Timing): string {
  return `${name.padEnd(44)} median ${timing.medianMs.toFixed(2)} ms  p95 ${timing.p95Ms.toFixed(2)} ms  min ${timing.minMs.toFixed(2)} ms`;
}

/** mca's own time of each tool step (answer finished → next request), over `runs` runs of `mca -p`. */
async function stepTimes(root: string, hooks: Record<string, unknown> | undefined, runs: number): Promise<Timing> {
  const server = await startFakeAnthropic(MULTI_STEP, { loop: true });
  const clock = watchServer(Number(new URL(server.url).port));
  const project = join(root, `project-${Math.random().toString(36).slice(2)}`);
  const home = join(project, '..', `${project.split('/').pop()}-home`);
  await writeProject(project);
  mkdirSync(home, { recursive: true });
  if (hooks) writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }));
  const env = fakeModelEnv(server.url, home);
  const samples: number[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      clock.reset();
      const result = await timedSpawn(process.execPath, [join(repo, 'dist', 'cli', 'mca.cjs'), '-p', MULTI_STEP_TASK], {
        env,
        cwd: project,
      });
      if (result.code !== 0) throw new Error(`mca exited ${String(result.code)}: ${result.stderr}`);
      for (let step = 0; step + 1 < clock.arrivals.length; step += 1) {
        samples.push((clock.arrivals[step + 1] ?? 0) - (clock.finishes[step] ?? 0));
      }
    }
  } finally {
    clock.close();
    await server.close();
  }
  return {
    runs: samples.length,
    medianMs: median(samples),
    p95Ms: percentile(samples, 95),
    minMs: Math.min(...samples),
  };
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--runs');
  const runs = at > 0 ? Number(process.argv[at + 1]) : 50;
  const root = mkdtempSync(join(tmpdir(), 'mca-hooks-bench-'));
  try {
    const answer = join(root, 'answer.sh');
    writeFileSync(
      answer,
      '#!/bin/sh\ncat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'\n',
    );
    chmodSync(answer, 0o755);
    const cases: Array<[string, string[]]> = [
      ['no hooks configured', []],
      ['one hook: exit 0', ['exit 0']],
      ['one hook: script reads stdin, answers JSON', [answer]],
      ['three such hooks (parallel)', [answer, `${answer} 2`, `${answer} 3`]],
    ];
    process.stdout.write(
      `hooks bench: PreToolUse per Bash call, ${runs} runs each (${machine().cpu}, load ${machine().load})\n`,
    );
    for (const [name, commands] of cases) {
      const hooks = sessionHooks(root, commands);
      process.stdout.write(`${row(name, await timeRuns(runs, () => hooks.beforeTool(CALL), 3))}\n`);
    }
    ensureBuild(repo, (line) => process.stdout.write(`${line}\n`));
    const binaryRuns = Math.max(3, Math.round(runs / 10));
    process.stdout.write(`\nmca -p, 7 read-only tool steps, ${binaryRuns} runs each: mca's time per step\n`);
    const one = { hooks: [{ type: 'command', command: 'exit 0' }] };
    const variants: Array<[string, Record<string, unknown> | undefined]> = [
      ['no hooks configured', undefined],
      ['one PreToolUse hook (exit 0)', { PreToolUse: [one] }],
      ['PreToolUse + PostToolUse hooks (exit 0)', { PreToolUse: [one], PostToolUse: [one] }],
    ];
    for (const [name, hooks] of variants) {
      process.stdout.write(`${row(name, await stepTimes(root, hooks, binaryRuns))}\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
