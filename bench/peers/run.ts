/**
 * `npm run bench:peers`: the real programs' bill (BENCHMARKS.md "Real programs' bill"). One scripted task
 * (bench/peers/task.json) played by a loopback fake model through mca and the peer programs, each in its own API
 * and tool vocabulary; every request body is recorded and billed by one rule (account.ts).
 *
 * Options: --only mca,codex (names, case-insensitive, spaces as dashes) · --task <file> · --out <dir>
 * Output: the table on stdout; request bodies, program logs and summary.json under bench/results/peers/<stamp>/.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../lib/ensure-build.js';
import { billOf } from './account.js';
import { driveProgram, type ProgramRun } from './drive.js';
import { ensurePeers } from './install.js';
import { PROGRAMS } from './programs.js';
import { renderTable } from './report.js';
import { loadTask, stepCount } from './script.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A program whose binary is missing (its npm install failed): reported as not run, never played. */
function notInstalled(program: string, binary: string, steps: number): ProgramRun {
  return {
    program,
    version: 'not installed',
    requests: [],
    stepsPlayed: 0,
    steps,
    overruns: 0,
    exitCodes: [],
    testsPassAtEnd: false,
    filesDiffering: [],
    unrouted: [],
    problem: `not run: ${binary} is missing (npm install into bench/.peers failed?)`,
  };
}

async function main(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`bench:peers: ${line}\n`);
  const taskPath = resolve(option('task') ?? join(HERE, 'task.json'));
  const task = loadTask(taskPath);
  const only = option('only')?.split(',').map(slug);
  const programs = PROGRAMS.filter((program) => only === undefined || only.includes(slug(program.name)));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = resolve(option('out') ?? join(HERE, '..', 'results', 'peers', stamp));
  mkdirSync(out, { recursive: true });
  ensureBuild(resolve(HERE, '..', '..'), log);
  const failedInstalls = ensurePeers(log);
  if (failedInstalls.length > 0) log(`not installed: ${failedInstalls.join(', ')}`);
  const workDir = mkdtempSync(join(tmpdir(), 'mca-peers-'));
  log(`task "${task.name}": ${task.turns.length} turns, ${stepCount(task)} model steps; work in ${workDir}`);
  const runs: ProgramRun[] = [];
  for (const program of programs) {
    log(`${program.name} (${program.api}) …`);
    const started = Date.now();
    const binary = program.command('', false).find((part) => part.includes('/')) ?? '';
    const run = existsSync(binary)
      ? await driveProgram(program, task, resolve(dirname(taskPath), task.repo), workDir)
      : notInstalled(program.name, binary, stepCount(task));
    runs.push(run);
    const lines = run.requests.map((request) => JSON.stringify(request));
    writeFileSync(join(out, `${slug(program.name)}.requests.jsonl`), `${lines.join('\n')}\n`);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    log(
      `${program.name}: ${run.requests.length} requests, ${run.stepsPlayed}/${run.steps} steps, ${seconds} s${run.problem ? ` — ${run.problem}` : ''}`,
    );
  }
  const rows = runs.map((run) => ({
    run,
    bill: billOf(run.requests),
    program: PROGRAMS.find((p) => p.name === run.program),
  }));
  const summary = rows.map(({ run, bill, program }) => ({
    program: run.program,
    version: run.version,
    api: program?.api,
    model: program?.model,
    stepsPlayed: run.stepsPlayed,
    steps: run.steps,
    overruns: run.overruns,
    exitCodes: run.exitCodes,
    testsPassAtEnd: run.testsPassAtEnd,
    filesDiffering: run.filesDiffering,
    followUpCarriesHistory: run.followUpCarriesHistory,
    unrouted: run.unrouted,
    problem: run.problem,
    bill,
  }));
  writeFileSync(join(out, 'summary.json'), `${JSON.stringify({ task: task.name, taskPath, summary }, null, 2)}\n`);
  const table = renderTable(summary);
  writeFileSync(join(out, 'table.md'), `${table}\n`);
  process.stdout.write(`${table}\n\nRequest bodies, logs and summary: ${out} (programs' work copies: ${workDir})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:peers failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
