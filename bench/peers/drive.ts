/**
 * Plays the task through one program: a fresh copy of the repository (a git repository with one commit, so
 * `git diff` works), an isolated HOME, the loopback fake, one process per turn (the follow-up with the program's
 * own continue flag). The program's tools really run on the copy; at the end the copy's tests are run once more
 * to tell whether the program applied every edit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApis } from './fake-apis.js';
import { Player, type RecordedRequest } from './player.js';
import type { Program, RunPlace } from './programs.js';
import { expectedFiles, stepCount, type Task } from './script.js';

export interface ProgramRun {
  program: string;
  version: string;
  requests: RecordedRequest[];
  stepsPlayed: number;
  steps: number;
  overruns: number;
  exitCodes: Array<number | null>;
  testsPassAtEnd: boolean;
  /** Edited files whose final content differs from the script's (an edit the program refused or changed). */
  filesDiffering: string[];
  /** The follow-up turn's first request carries the first turn's prompt (the program continued its session). */
  followUpCarriesHistory?: boolean;
  unrouted: string[];
  /** Why the run is not a full play of the script, when it is not. */
  problem?: string;
}

const TURN_TIMEOUT_MS = 240_000;

function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
  };
}

function runTurn(argv: string[], env: Record<string, string>, cwd: string, log: string): Promise<number | null> {
  const [command, ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(command as string, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      output += `\n[bench: killed after ${TURN_TIMEOUT_MS} ms]\n`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, TURN_TIMEOUT_MS);
    child.on('error', (error) => {
      output += `\n[bench: ${String(error)}]\n`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      writeFileSync(log, output);
      resolve(code);
    });
  });
}

export function versionOf(program: Program): string {
  const [command, ...args] = program.version;
  const result = spawnSync(command as string, args, { encoding: 'utf8', env: baseEnv('/tmp'), timeout: 60_000 });
  const line = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').find((text) => /\d+\.\d+/.test(text));
  return line?.trim() ?? `unavailable (${result.error?.message ?? `exit ${String(result.status)}`})`;
}

export async function driveProgram(
  program: Program,
  task: Task,
  repoSource: string,
  workDir: string,
): Promise<ProgramRun> {
  const slug = program.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const base = join(workDir, slug);
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  cpSync(repoSource, repo, { recursive: true });
  const git = (...args: string[]): void => {
    spawnSync('git', args, {
      cwd: repo,
      env: {
        ...baseEnv(home),
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'b@x',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'b@x',
      },
    });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'tiny-qs 1.3.0');
  const player = new Player(task, repo);
  const fake = await startFakeApis(player);
  const place: RunPlace = { repo, home, url: fake.url };
  program.setup(place);
  const env = { ...baseEnv(home), ...program.env(place) };
  const exitCodes: Array<number | null> = [];
  try {
    for (const [index, turn] of task.turns.entries()) {
      const log = join(base, `turn-${index + 1}.log`);
      exitCodes.push(await runTurn(program.command(turn.prompt, index > 0), env, repo, log));
    }
  } finally {
    await fake.close();
  }
  const tests = spawnSync('node', ['--test', 'test/'], { cwd: repo, encoding: 'utf8' });
  const expected = expectedFiles(task, (path) => readFileSync(join(repoSource, path), 'utf8'));
  const filesDiffering = [...expected].flatMap(([path, text]) =>
    readFileSync(join(repo, path), 'utf8') === text ? [] : [path],
  );
  const steps = stepCount(task);
  const run: ProgramRun = {
    program: program.name,
    version: versionOf(program),
    requests: player.requests,
    stepsPlayed: player.stepsPlayed(),
    steps,
    overruns: player.overruns,
    exitCodes,
    testsPassAtEnd: tests.status === 0,
    filesDiffering,
    unrouted: fake.unrouted,
  };
  const firstTurnSteps = task.turns[0]?.steps.length ?? 0;
  const followUp = player.requests.find((request) => request.step === firstTurnSteps);
  if (task.turns.length > 1 && followUp !== undefined) {
    run.followUpCarriesHistory = followUp.raw.includes(JSON.stringify(task.turns[0]?.prompt.slice(0, 24)).slice(1, -1));
  }
  if (player.requests.length === 0) run.problem = `sent no request to the fake (see ${base}/turn-1.log)`;
  else if (run.stepsPlayed < steps) run.problem = `stopped after ${run.stepsPlayed} of ${steps} steps (see ${base})`;
  else if (!run.testsPassAtEnd) run.problem = 'the script played out but the repository tests fail at the end';
  else if (run.followUpCarriesHistory === false) run.problem = 'the follow-up turn started a new session';
  else if (filesDiffering.length > 0)
    run.problem = `final content differs from the script's in ${filesDiffering.join(', ')}`;
  return run;
}
