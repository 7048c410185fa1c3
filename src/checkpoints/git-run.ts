/**
 * Running git read-only for the checkpoint scan. Contract: nothing here ever writes the repository: every run has
 * `--no-optional-locks` and GIT_OPTIONAL_LOCKS=0 (no opportunistic index refresh), the fsmonitor hook is off (a
 * repository's own config must not make mca run a program), and only plumbing that reads is used (ls-files,
 * hash-object without -w, cat-file). Output is capped and every run has a deadline; a missing git, a directory
 * that is no repository, a timeout or an oversized answer all come back as `ok: false`, never as a throw, so the
 * caller falls back to its own walk.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { spawn } from 'node:child_process';

/** `final`: git was stopped (deadline, interrupt), not refused: a fallback walk would only wait as long again. */
export type GitRun = { ok: true; stdout: Buffer } | { ok: false; reason: string; final?: boolean };

export interface GitRunOptions {
  cwd: string;
  /** Written to git's stdin, then stdin is closed. */
  input?: string;
  /** The answer is refused (and git ended) past this many bytes. */
  maxBytes: number;
  deadlineMs: number;
  signal?: AbortSignal;
  /** Exit codes that are an answer, not a failure (`check-ignore` exits 1 when nothing is ignored); default [0]. */
  okCodes?: readonly number[];
}

/** Every argument list starts with these: no lock, no index write, no hook program from the repository's config. */
const SAFE_ARGS = ['--no-optional-locks', '-c', 'core.fsmonitor=false'];

export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitRun> {
  return new Promise<GitRun>((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, reason: 'the project scan was interrupted', final: true });
      return;
    }
    const child = spawn('git', [...SAFE_ARGS, ...args], {
      cwd: options.cwd,
      env: { ...sessionEnvironment(), GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let failure: string | undefined;
    let final = false;
    const stop = (reason: string, stopped = false): void => {
      if (failure === undefined) final = stopped;
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(`the project scan took longer than ${options.deadlineMs} ms`, true),
      options.deadlineMs,
    );
    const onAbort = (): void => stop('the project scan was interrupted', true);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxBytes) stop(`git's answer is over ${options.maxBytes} bytes`);
      else chunks.push(chunk);
    });
    let settled = false;
    const settle = (run: GitRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(run);
    };
    child.stdin.on('error', () => undefined); // git exited before reading all of it: its exit code says why
    // git missing from the PATH: 'error' may come without a 'close' after it.
    child.on('error', (error) => {
      child.kill('SIGKILL');
      settle({ ok: false, reason: `git could not run (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
    });
    child.on('close', (code) => {
      if (failure !== undefined) settle({ ok: false, reason: failure, ...(final ? { final } : {}) });
      else if (code === null || !(options.okCodes ?? [0]).includes(code))
        settle({ ok: false, reason: `git exited with ${code ?? 'a signal'}` });
      else settle({ ok: true, stdout: Buffer.concat(chunks) });
    });
    child.stdin.end(options.input ?? '');
  });
}
