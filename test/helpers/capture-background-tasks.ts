/**
 * The background-task scenario of test/fixtures/claude-code-stream/background-task.json, run against Claude Code's
 * binary (to capture the golden) or mca's (the e2e test): `-p go --output-format stream-json --verbose` with
 * bypassPermissions against the loopback fake. The scripted model starts task A in the background (it waits for a
 * file `go`, then prints and ends), starts task B (`sleep 30`), stops B with TaskStop, then makes `go` and waits
 * until A has ended, and answers. Every stdout line comes back parsed.
 *   tsx test/helpers/capture-background-tasks.ts <out.jsonl>   captures Claude Code's lines (IS_SANDBOX=1: as root)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_BIN } from './capture-claude-code.js';
import { startFakeAnthropic, userText, type FakeRequestBody } from './fake-anthropic-server.js';
import { parseLines } from './stream-shapes.js';

export const TASK_A = 'echo $$ > a.pid; echo a-started; until [ -f go ]; do sleep 0.05; done; echo a-done';
export const TASK_B = 'sleep 30';

function taskIds(body: FakeRequestBody): string[] {
  return [...userText(body).matchAll(/running in background with ID: (\w+)/g)].map((match) => match[1] ?? '');
}

/** `waitForA`: the last call, made once `go` exists (a Bash that waits for A's process, or mca's TaskOutput). */
export async function runBackgroundScenario(options: {
  command: string;
  args: string[];
  env?: Record<string, string>;
  waitForA: (taskId: string) => { name: string; input: Record<string, unknown> };
}): Promise<{ lines: Array<Record<string, unknown>>; code: number | null; stderr: string }> {
  let step = 0;
  const fake = await startFakeAnthropic(
    [
      (body) => {
        if (!Array.isArray(body.tools) || body.tools.length === 0) return { text: 'side answer' };
        step += 1;
        const ids = taskIds(body);
        const bash = (command: string, background: boolean) => ({
          name: 'Bash',
          input: background ? { command, run_in_background: true } : { command },
        });
        if (step === 1) return { text: 'Start A.', calls: [{ id: 'toolu_bg_a', ...bash(TASK_A, true) }] };
        if (step === 2) return { text: 'Start B.', calls: [{ id: 'toolu_bg_b', ...bash(TASK_B, true) }] };
        if (step === 3)
          return { text: 'Stop B.', calls: [{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: ids[1] } }] };
        if (step === 4) return { text: 'Let A end.', calls: [{ id: 'toolu_go', ...bash('touch go', false) }] };
        if (step === 5)
          return { text: 'Wait for A.', calls: [{ id: 'toolu_wait', ...options.waitForA(ids[0] ?? '') }] };
        return { text: 'Done.' };
      },
    ],
    { loop: true },
  );
  const home = mkdtempSync(join(tmpdir(), 'bg-scenario-home-'));
  const project = mkdtempSync(join(tmpdir(), 'bg-scenario-project-'));
  const child = spawn(
    options.command,
    [
      ...options.args,
      '-p',
      'go',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
    ],
    {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        MCA_HOME: join(home, '.mca'),
        ANTHROPIC_API_KEY: 'sk-ant-capture-dummy-0123456789',
        ANTHROPIC_BASE_URL: fake.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  await fake.close();
  return { lines: parseLines(stdout), code, stderr };
}

/** The task lines' kinds in order, each with the task it names (`A`, `B`) and, for a change, the live set. */
export function taskSequence(lines: ReadonlyArray<Record<string, unknown>>): string[] {
  const names = new Map<string, string>();
  const nameOf = (id: unknown): string => {
    const key = String(id);
    if (!names.has(key)) names.set(key, names.size === 0 ? 'A' : 'B');
    return names.get(key) ?? '?';
  };
  return lines.flatMap((line) => {
    const subtype = String(line.subtype);
    if (line.type !== 'system') return [];
    if (subtype === 'background_tasks_changed') {
      const live = (line.tasks as Array<{ task_id: string }>).map((task) => nameOf(task.task_id));
      return [`${subtype}[${live.join(',')}]`];
    }
    if (!subtype.startsWith('task_') || subtype === 'task_progress') return [];
    const detail = subtype === 'task_updated' ? `:${String((line.patch as { status?: unknown }).status)}` : '';
    const status = subtype === 'task_notification' ? `:${String(line.status)}` : detail;
    return [`${subtype} ${nameOf(line.task_id)}${status}`];
  });
}

if (process.argv[1]?.endsWith('capture-background-tasks.ts')) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: capture-background-tasks <out.jsonl>');
  const run = await runBackgroundScenario({
    command: CLAUDE_BIN,
    args: [],
    env: { IS_SANDBOX: '1' },
    waitForA: () => ({
      name: 'Bash',
      input: { command: 'while kill -0 "$(cat a.pid)" 2>/dev/null; do sleep 0.05; done; sleep 1' },
    }),
  });
  writeFileSync(out, `${run.lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  process.stderr.write(
    `exited ${String(run.code)}; ${run.lines.length} lines; ${taskSequence(run.lines).join(' | ')}\n`,
  );
}
