/**
 * Shared machinery of the reliability suite: temp sandboxes (project + MCA_HOME), running the built `mca`
 * binary against the loopback fake API, and the "nothing lost" checks on the session files it leaves behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { historyViolations } from '../../src/context/history-invariants.js';
import type { Message } from '../../src/context/message.js';
import { parseSessionText } from '../../src/store/session-records.js';
import { hasOpenRound, SessionStore } from '../../src/store/session-store.js';
import { SUMMARY_CLOSING, SUMMARY_SYSTEM } from '../../src/context/summary-request.js';
import { systemText, userText, type FakeRequestBody } from '../helpers/fake-anthropic-server.js';

export const BIN = resolve('dist/cli/mca.cjs');

/** Not shaped like an Anthropic key on purpose: only the explicit secret list can redact it. */
export const API_KEY = 'sk-test-reliability-7f3a9c2e5b1d4f60';

/** Fast, bounded fault handling for the binary under test. */
export const FAST_ENV: Readonly<Record<string, string>> = {
  MCA_MAX_RETRIES: '2',
  MCA_RETRY_BASE_MS: '10',
  MCA_STREAM_IDLE_TIMEOUT_MS: '3000',
};

export interface Sandbox {
  project: string;
  home: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(label = 'mca-rel'): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), `${label}-`)));
  const { mkdir } = await import('node:fs/promises');
  const project = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(project);
  await mkdir(home);
  return { project, home, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface RunOptions {
  baseUrl: string;
  env?: Record<string, string>;
  /** Kill the run (SIGKILL) if it has not ended by then; a hang is a failure the test reports. */
  timeoutMs?: number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function childEnv(sandbox: Sandbox, options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what a node process needs; nothing of the developer's own mca or Anthropic setup leaks in.
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    ANTHROPIC_API_KEY: API_KEY,
    ANTHROPIC_BASE_URL: options.baseUrl,
    MCA_HOME: sandbox.home,
    MCA_TOOL_PROTOCOL: 'text',
    ...FAST_ENV,
    ...options.env,
  };
}

/** Starts `mca <args> --cwd <project>`; the caller owns the process (e.g. to SIGKILL it). */
export function spawnMca(sandbox: Sandbox, args: readonly string[], options: RunOptions): ChildProcess {
  return spawn(process.execPath, [BIN, ...args, '--cwd', sandbox.project], {
    env: childEnv(sandbox, options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Collected {
  child: ChildProcess;
  done: Promise<RunResult>;
}

export function collect(child: ChildProcess, timeoutMs?: number): Collected {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<RunResult>((resolveRun, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            stderr += `\n[harness] killed after ${timeoutMs} ms\n`;
          }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

export function runMca(sandbox: Sandbox, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return collect(spawnMca(sandbox, args, options), options.timeoutMs ?? 15_000).done;
}

/** The last `mca: …` line on stderr: the one-line message a user sees. */
export function lastErrorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.startsWith('mca: '));
  return lines[lines.length - 1] ?? '';
}

export interface SessionCheck {
  sessionId: string;
  messages: Message[];
  /** Everything wrong with the file; empty when it is intact. */
  problems: string[];
  /** The file ended mid-line (tolerated: the store drops the fragment on open). */
  tornTail: boolean;
}

/** Reads every session file of the sandbox's project without changing it and checks it. */
export async function checkSessions(sandbox: Sandbox): Promise<SessionCheck[]> {
  const store = new SessionStore(sandbox.home, sandbox.project);
  if (!existsSync(store.dir)) return [];
  const checks: SessionCheck[] = [];
  for (const name of (await readdir(store.dir)).filter((file) => file.endsWith('.jsonl')).sort()) {
    const text = await readFile(join(store.dir, name), 'utf8');
    const parsed = parseSessionText(text, name);
    const problems = parsed.warnings.filter((warning) => !(parsed.tornTail && warning.includes('incomplete last')));
    if (!parsed.meta) problems.push(`${name}: no meta record`);
    problems.push(...historyViolations(parsed.messages).map((problem) => `${name}: ${problem}`));
    checks.push({
      sessionId: name.replace(/\.jsonl$/, ''),
      messages: parsed.messages,
      problems,
      tornTail: parsed.tornTail,
    });
  }
  return checks;
}

/** The one session of a sandbox, intact and with every round closed (what a finished `mca -p` leaves). */
export async function closedSession(sandbox: Sandbox): Promise<SessionCheck> {
  const checks = await checkSessions(sandbox);
  if (checks.length !== 1 || checks[0] === undefined) throw new Error(`expected 1 session, found ${checks.length}`);
  const check = checks[0];
  if (hasOpenRound(check.messages)) check.problems.push('the last round was left open');
  return check;
}

/** User messages' first lines in order: which rounds a history still holds. */
export function userPrompts(messages: readonly Message[]): string[] {
  return messages.filter((message) => message.role === 'user').map((message) => message.content.split('\n')[0] ?? '');
}

/** Every file under `dir` (relative paths), for "nothing else was written" checks. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (current: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(current, entry.name), rel);
      else out.push(rel);
    }
  };
  if (existsSync(dir)) await walk(dir, '');
  return out.sort();
}

/** Alive and not a zombie waiting to be reaped (orphans stay zombies when the container's init never reaps). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A ReAct reply for the fake model. */
export function act(tool: string, input: unknown, thought = 'working'): { text: string } {
  return { text: `Thought: ${thought}\nAction: ${tool}[${JSON.stringify(input)}]` };
}

export function finish(answer: string): { text: string } {
  return { text: `Thought: done\nAction: Finish[${answer}]` };
}

/**
 * True for a summary request, false for agent steps: the standalone one has its fixed system prompt, the one on the
 * cached prefix has the agent's system blocks and ends with the summary instruction block.
 */
export function isSummaryRequest(body: FakeRequestBody): boolean {
  if (systemText(body).includes(SUMMARY_SYSTEM)) return true;
  const last = body.messages?.at(-1);
  return last !== undefined && userText({ messages: [last] }).includes(SUMMARY_CLOSING);
}
