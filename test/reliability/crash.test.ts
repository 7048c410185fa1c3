/**
 * Crash safety: a long scripted session (Read / Write of a 40 KB file / Bash / compactions) run through the real
 * binary and killed with SIGKILL at seeded random moments. After every kill: the session file loads, every round
 * that closed before the kill is still there (verbatim or inside a summary), an answer already printed belongs to
 * a closed round, and the user's file is a whole version, never a torn one. The next kill's run is `mca -c`, so
 * each kill also proves that the session continues. MCA_CRASH_SEED replays a run; MCA_CRASH_KILLS sets the count.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRASHED_ROUND_TEXT } from '../../src/store/salvage-history.js';
import { hasOpenRound, SessionStore } from '../../src/store/session-store.js';
import type { Message } from '../../src/context/message.js';
import {
  startFakeAnthropic,
  userText,
  type FakePlainStep,
  type FakeRequestBody,
} from '../helpers/fake-anthropic-server.js';
import { act, checkSessions, collect, isSummaryRequest, makeSandbox, spawnMca, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const SEED = Number(process.env.MCA_CRASH_SEED ?? Date.now() % 1_000_000);
/** Kills in total, split over two chains that run side by side. */
const KILLS = Number(process.env.MCA_CRASH_KILLS ?? 52);
const CHAINS = 2;
const LINES = 600;

/** mulberry32: small, seedable, good enough to spread kill moments. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A 40 KB file whose every line names its version, so a torn or mixed write is visible. */
function bigContent(tag: string): string {
  return `${tag} ${'x'.repeat(60)}\n`.repeat(LINES);
}

const STEPS = (task: number) => [
  act('Read', { path: 'big.txt' }),
  act('Write', { path: 'big.txt', content: bigContent(`t${task}a`) }),
  act('Bash', { command: `sleep 0.2; echo step-${task} >> bash.log` }),
  act('Write', { path: 'big.txt', content: bigContent(`t${task}b`) }),
];

/** The fake model: answers each request from what it asks (which task, how many steps so far). */
function crashModel(body: FakeRequestBody): FakePlainStep {
  if (isSummaryRequest(body)) {
    return { text: '## 📌 Archived Session Summary\n- Earlier tasks rewrote big.txt and appended to bash.log.' };
  }
  const user = userText(body);
  const task = Number([...user.matchAll(/\btask (\d+)\b/g)].pop()?.[1] ?? 0);
  const done = (user.match(/^Observation( \(compressed\))?:/gm) ?? []).length;
  const step = STEPS(task)[done];
  if (step) return step;
  // Every fourth task reports a nearly full context, so the next turn compacts (and may be killed doing so).
  return {
    text: `Thought: done\nAction: Finish[done ${task}]`,
    usage: task % 4 === 3 ? { input_tokens: 170_000 } : {},
  };
}

interface Ledger {
  /** Rounds seen closed, by round number → their prompt. */
  closed: Map<number, string>;
}

function coveredBySummary(messages: readonly Message[], round: number): boolean {
  return messages.some((message) => {
    const covers = message.metadata.coversRounds;
    return message.role === 'summary' && covers !== undefined && covers[0] <= round && round <= covers[1];
  });
}

function closedRounds(messages: readonly Message[]): Map<number, string> {
  const rounds = new Map<number, string>();
  const open = new Map<number, string>();
  for (const message of messages) {
    if (message.role === 'user') open.set(message.metadata.round, message.content);
    if (message.metadata.roundEnd !== undefined) {
      const prompt = open.get(message.metadata.round);
      if (prompt !== undefined) rounds.set(message.metadata.round, prompt);
    }
  }
  return rounds;
}

interface KillOutcome {
  problems: string[];
  tornTail: boolean;
  tempFiles: number;
  killed: boolean;
  /** Where the kill landed: before the turn was recorded, mid-turn, or after the round closed. */
  phase: 'start-up' | 'mid-turn' | 'after close';
}

/** Everything that must hold after one (possibly killed) run. */
async function verify(sandbox: Sandbox, ledger: Ledger, task: number, stdout: string): Promise<KillOutcome> {
  const problems: string[] = [];
  // A kill before the first user message leaves an empty session, which -c rightly skips: only sessions with
  // rounds count, and -c must keep those to one.
  const checks = (await checkSessions(sandbox)).filter((one) => one.messages.length > 0);
  if (checks.length > 1) problems.push(`${checks.length} session files with rounds; -c should keep one`);
  const check = checks[0];
  let tornTail = false;
  let phase: KillOutcome['phase'] = 'start-up';
  if (check) {
    const prompts = check.messages.filter((message) => message.role === 'user').map((message) => message.content);
    if (prompts.includes(`task ${task}`)) phase = 'mid-turn';
    tornTail = check.tornTail;
    problems.push(
      // A kill between creating the file and writing its meta line leaves a session without one; the store loads
      // such a file (meta is optional) and nothing in it is lost, so that alone is not a failure.
      ...check.problems.filter((problem) => !problem.endsWith('no meta record')),
    );
    for (const [round, prompt] of ledger.closed) {
      const still = closedRounds(check.messages).get(round);
      if (still !== prompt && !coveredBySummary(check.messages, round))
        problems.push(`round ${round} (${prompt}) was lost`);
    }
    const current = closedRounds(check.messages);
    if (stdout.includes(`done ${task}`) && ![...current.values()].includes(`task ${task}`)) {
      problems.push(`task ${task} printed its answer but its round is not closed in the session file`);
    }
    if ([...current.values()].includes(`task ${task}`)) phase = 'after close';
    for (const [round, prompt] of current) ledger.closed.set(round, prompt);
    // What `mca -c` does first: open the file (dropping a torn tail) and read the same history back.
    const store = new SessionStore(sandbox.home, sandbox.project);
    const loaded = await store.open(check.sessionId);
    loaded.writer.close();
    // The store reads the same history back; a round the kill left open comes back closed as crashed.
    const extra = loaded.messages.slice(check.messages.length);
    const sameStart =
      JSON.stringify(loaded.messages.slice(0, check.messages.length)) === JSON.stringify(check.messages);
    const crashClosed = extra.length === 1 && extra[0]?.content === CRASHED_ROUND_TEXT && hasOpenRound(check.messages);
    if (!sameStart || (extra.length > 0 && !crashClosed)) problems.push('the store loaded a different history');
    if (hasOpenRound(loaded.messages)) problems.push('a round is still open after loading');
  } else if (ledger.closed.size > 0) {
    problems.push('the session file disappeared');
  }
  const bigPath = join(sandbox.project, 'big.txt');
  if (existsSync(bigPath)) {
    const content = await readFile(bigPath, 'utf8');
    const tag = content.slice(0, content.indexOf(' '));
    if (content !== bigContent(tag)) problems.push(`big.txt is torn (${content.length} bytes, first tag ${tag})`);
  }
  const tempFiles = (await readdir(sandbox.project)).filter((name) => name.includes('.mca-') && name.endsWith('.tmp'));
  // A kill between writing the temp file and renaming it leaves that one file; the next write removes it.
  if (tempFiles.length > 1) problems.push(`${tempFiles.length} temp files piled up: ${tempFiles.join(', ')}`);
  return { problems, tornTail, tempFiles: tempFiles.length, killed: false, phase };
}

const log = new ResultLog('crash');
const outcomes: KillOutcome[] = [];
let finalRuns = 0;
let finalOk = 0;

async function chain(index: number, kills: number): Promise<void> {
  const random = rng(SEED + index * 7919);
  const sandbox = await makeSandbox(`mca-crash${index}`);
  // Kill timers mostly start at the run's first model request, so kills land inside the turn, not in start-up.
  let onFirstRequest: (() => void) | undefined;
  const server = await startFakeAnthropic(
    [
      (body) => {
        onFirstRequest?.();
        onFirstRequest = undefined;
        return crashModel(body);
      },
    ],
    { loop: true },
  );
  const ledger: Ledger = { closed: new Map() };
  const env = { MCA_MIN_RETAIN_ROUNDS: '2', MCA_PERMISSION_MODE: 'bypassPermissions' };
  try {
    let task = 1;
    let killed = 0;
    let turnMs = 1_500;
    for (let attempt = 0; killed < kills && attempt < kills * 3; attempt += 1, task += 1) {
      const duringStartUp = random() < 0.15;
      // Kill moments spread over the turn as long as it really takes on this machine (learnt from unkilled runs).
      const delay = Math.floor(random() * (duringStartUp ? 1_000 : turnMs * 1.1));
      const run = collect(spawnMca(sandbox, ['-c', '-p', `task ${task}`], { baseUrl: server.url, env }), 30_000);
      let timer: NodeJS.Timeout | undefined;
      let firstRequestAt: number | undefined;
      const arm = (): void => {
        firstRequestAt = performance.now();
        timer = setTimeout(() => run.child.kill('SIGKILL'), delay);
      };
      if (duringStartUp) arm();
      else onFirstRequest = arm;
      const result = await run.done;
      onFirstRequest = undefined;
      clearTimeout(timer);
      const outcome = await verify(sandbox, ledger, task, result.stdout);
      outcome.killed = result.signal === 'SIGKILL';
      if (!outcome.killed && result.code !== 0) outcome.problems.push(`run ended ${result.code}: ${result.stderr}`);
      if (outcome.killed) killed += 1;
      // Still mid-turn when killed: the turn may be longer than thought, so later kills may land later in it.
      if (outcome.killed && outcome.phase === 'mid-turn') turnMs *= 1.05;
      else if (firstRequestAt !== undefined && result.code === 0) {
        turnMs = (turnMs + (performance.now() - firstRequestAt)) / 2;
      }
      outcomes.push(outcome);
    }
    // After the last kill a run must finish normally in the same session.
    finalRuns += 1;
    const last = await collect(spawnMca(sandbox, ['-c', '-p', `task ${task}`], { baseUrl: server.url, env }), 30_000)
      .done;
    const after = await verify(sandbox, ledger, task, last.stdout);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toBe(`done ${task}\n`);
    expect(after.problems).toEqual([]);
    expect(after.tempFiles).toBe(0);
    finalOk += 1;
  } finally {
    await server.close();
    await sandbox.cleanup();
  }
}

describe('crash safety: kill -9 at random points of a long session', () => {
  afterAll(() => {
    const killed = outcomes.filter((outcome) => outcome.killed);
    const intact = killed.filter((outcome) => outcome.problems.length === 0).length;
    log.fact('seed', SEED);
    log.fact('kills', killed.length);
    log.fact('runs that finished before their kill', outcomes.length - killed.length);
    for (const phase of ['start-up', 'mid-turn', 'after close'] as const) {
      log.fact(`kills landing ${phase}`, killed.filter((outcome) => outcome.phase === phase).length);
    }
    log.fact('torn last lines dropped on load', outcomes.filter((outcome) => outcome.tornTail).length);
    log.fact(
      'kills that left a temp file beside big.txt (removed by the next write)',
      killed.filter((outcome) => outcome.tempFiles > 0).length,
    );
    log.add({
      group: 'crash',
      fault: `kill -9 at a random moment of a scripted session (seed ${SEED})`,
      behaviour: 'session file loads, closed rounds kept, big.txt whole (old or new), -c continues',
      runs: killed.length,
      intact,
    });
    log.add({
      group: 'crash',
      fault: 'a normal run after the last kill',
      behaviour: 'exit 0 in the same session, every earlier closed round present, no temp file left',
      runs: finalRuns,
      intact: finalOk,
    });
    log.write();
  });

  it(`survives ${KILLS} kills (seed ${SEED})`, { timeout: 600_000 }, async () => {
    process.stdout.write(`crash test seed: ${SEED} (replay with MCA_CRASH_SEED=${SEED})\n`);
    const perChain = Math.ceil(KILLS / CHAINS);
    await Promise.all(Array.from({ length: CHAINS }, (_, index) => chain(index, perChain)));
    const killed = outcomes.filter((outcome) => outcome.killed);
    expect(killed.length).toBeGreaterThanOrEqual(KILLS);
    expect(outcomes.flatMap((outcome) => outcome.problems)).toEqual([]);
  });
});
