/**
 * Runs one hook command: `sh -c <command>` in the project directory, in its own process group, with
 * CLAUDE_PROJECT_DIR and MCA_PROJECT_DIR set and mca's credentials withheld (as for Bash), the event's JSON written
 * to stdin and stdin closed. stdout and stderr are kept up to a byte cap each (the rest is counted, not stored).
 * Past the timeout the whole process group is ended (SIGTERM, then SIGKILL) and the run reports `timedOut`.
 * Never rejects: a command that cannot be started is a result too.
 */
import { spawn } from 'node:child_process';
import { childEnvironment, type EnvironmentView } from '../config/child-environment.js';
import type { BoxedSpawn, ProjectCommandBox } from '../tools/processes/bash-box.js';
import { terminateGroup, trackGroup, untrackGroup } from '../tools/processes/process-group.js';

/** Bytes kept of each stream; a hook's useful answer is a few hundred bytes of JSON. */
export const HOOK_OUTPUT_MAX_BYTES = 1024 * 1024;
/** Once the hook itself has exited, how long a background child may keep its pipes open before mca stops reading. */
const PIPE_DRAIN_MS = 1000;

export interface HookProcessOptions {
  command: string;
  stdin: string;
  projectRoot: string;
  timeoutMs: number;
  /** Aborting ends the hook like a timeout (the user interrupted the turn). */
  signal?: AbortSignal;
  /** The runtime's environment (src/config/child-environment.ts); absent: process.env with the session's overlay. */
  env?: EnvironmentView;
  /** Runs the command in the sandbox (a project's hook while the box is on); undefined: as is. */
  box?: ProjectCommandBox | undefined;
  /** A plugin's hook: CLAUDE_PLUGIN_ROOT for the command. */
  pluginRoot?: string;
}

export interface CapturedStream {
  /** The first HOOK_OUTPUT_MAX_BYTES bytes. */
  bytes: Buffer;
  /** All bytes the hook wrote, kept or not. */
  totalBytes: number;
}

export interface HookProcessResult {
  /** The exit code, or null when a signal ended it (timeout included) or it never started. */
  exitCode: number | null;
  stdout: CapturedStream;
  stderr: CapturedStream;
  timedOut: boolean;
  aborted: boolean;
  /** Set when `sh` itself could not be started. */
  spawnError?: string;
  durationMs: number;
}

class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = HOOK_OUTPUT_MAX_BYTES - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }

  result(): CapturedStream {
    return { bytes: Buffer.concat(this.chunks), totalBytes: this.total };
  }
}

function captured(stdout: Capture, stderr: Capture): { stdout: CapturedStream; stderr: CapturedStream } {
  return { stdout: stdout.result(), stderr: stderr.result() };
}

function hookEnvironment(options: HookProcessOptions): Record<string, string> {
  const dirs: Record<string, string> = {
    CLAUDE_PROJECT_DIR: options.projectRoot,
    MCA_PROJECT_DIR: options.projectRoot,
  };
  if (options.pluginRoot !== undefined) dirs.CLAUDE_PLUGIN_ROOT = options.pluginRoot;
  return childEnvironment(dirs, options.env);
}

export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  const started = Date.now();
  const stdout = new Capture();
  const stderr = new Capture();
  const env = hookEnvironment(options);
  let boxed: BoxedSpawn | undefined;
  try {
    boxed = await options.box?.(options.command, env);
  } catch (error) {
    const message = `the sandbox could not start: ${(error as Error).message}`;
    return {
      exitCode: null,
      ...captured(stdout, stderr),
      timedOut: false,
      aborted: false,
      spawnError: message,
      durationMs: 0,
    };
  }
  const spec = boxed ?? { file: '/bin/sh', args: ['-c', options.command], env };
  return await new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(spec.file, spec.args, {
        cwd: options.projectRoot,
        env: spec.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({
        exitCode: null,
        stdout: stdout.result(),
        stderr: stderr.result(),
        timedOut: false,
        aborted: false,
        spawnError: (error as Error).message,
        durationMs: Date.now() - started,
      });
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let spawnError: string | undefined;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) untrackGroup(pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      void boxed?.finish({ failed: false, stdout: '', stderr: '' });
      resolve({
        exitCode,
        stdout: stdout.result(),
        stderr: stderr.result(),
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
        durationMs: Date.now() - started,
      });
    };
    const stop = (): void => {
      if (pid === undefined) return finish();
      void terminateGroup(pid, 500).then(finish);
    };
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A hook that never reads its stdin closes the pipe under us (EPIPE): that is its right, not a failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin);
    child.on('error', (error) => {
      spawnError = error.message;
      finish();
    });
    child.on('exit', (code) => {
      exitCode = code;
      if (timedOut || aborted) return;
      drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
    });
    child.on('close', () => {
      if (!timedOut && !aborted) finish();
    });
  });
}
