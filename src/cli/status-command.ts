/**
 * Settings `statusLine` (issue 40, Claude Code's meaning): a command that gets the session's state as JSON on stdin
 * and prints the line the REPL shows under the input. It runs through `sh -c` in the project directory; only its
 * first line counts (1 KiB at most). A command slower than STATUS_TIMEOUT_MS is killed and a failing one shows
 * nothing: neither ever blocks the REPL, which keeps its own status line meanwhile.
 */
import { spawn } from 'node:child_process';

export const STATUS_TIMEOUT_MS = 5_000;
const MAX_OUTPUT = 1024;

/** Claude Code's status-line input, the fields mca has. */
export interface StatusLineInput {
  hook_event_name: 'Status';
  session_id: string;
  cwd: string;
  model: { id: string; display_name: string };
  workspace: { current_dir: string; project_dir: string };
  version: string;
  cost: { total_cost_usd: number };
  context_window: { used_tokens: number | null; window_tokens: number; used_percentage: number | null };
}

/** Runs the command once; resolves with its first line, or undefined when it failed, printed nothing or hung. */
export function runStatusCommand(command: string, cwd: string, input: StatusLineInput): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const child = spawn('/bin/sh', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    /** The command's whole process group: on a time-out, and when mca exits while it runs (no orphan). */
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    process.once('exit', kill);
    const done = (line: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      process.off('exit', kill);
      resolve(line);
    };
    const timer = setTimeout(() => {
      kill();
      done(undefined);
    }, STATUS_TIMEOUT_MS);
    child.on('error', () => done(undefined));
    child.stdout.on('data', (chunk: Buffer) => {
      if (output.length < MAX_OUTPUT) output += chunk.toString('utf8').slice(0, MAX_OUTPUT - output.length);
    });
    child.on('close', (code) => {
      const first = output.split('\n')[0]?.trimEnd() ?? '';
      done(code === 0 && first !== '' ? first : undefined);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
  });
}
