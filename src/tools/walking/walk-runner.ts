/**
 * Runs walk jobs (walk-job.ts) in worker threads so a pattern that never finishes cannot hold the main thread:
 * Ctrl-C, SIGTERM and the tool's deadline all end the job by terminating its worker, which stops even a regex
 * stuck in a backtracking loop. Idle workers are kept (unref'd) for the next call; one per concurrent job.
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { positiveNumber } from '../../config/env-number.js';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import type { WalkJob, WalkJobResult } from './walk-job.js';

/** How long one walking tool call may take before it is stopped with TIMEOUT. */
export const WALK_DEADLINE_MS = 60_000;

/** The deadline in force: MCA_TOOL_DEADLINE_MS (milliseconds, > 0) overrides the default. */
export function toolDeadlineMs(): number {
  return positiveNumber(sessionEnvironment().MCA_TOOL_DEADLINE_MS, WALK_DEADLINE_MS);
}

export type WalkOutcome =
  | { kind: 'done'; result: WalkJobResult }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'interrupted' }
  | { kind: 'failed'; message: string };

/**
 * A worker's own heap: a pattern that expands without end (`{a,b}` 24 times is 16 million globs) ends that worker
 * with ERR_WORKER_OUT_OF_MEMORY instead of growing mca to gigabytes.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

/**
 * node:worker_threads, required by the first walk that needs a thread (spawnWorker is synchronous): a session that
 * walks nothing never loads it (about 1.5 ms of every start-up).
 */
const requireBuiltin = createRequire(import.meta.url);
function workerClass(): typeof Worker {
  return (requireBuiltin('node:worker_threads') as typeof WorkerThreads).Worker;
}

const idle: Worker[] = [];
let nextId = 1;

function spawnWorker(): Worker {
  const here = import.meta.url;
  // Built: dist/cli/walk-worker.js beside this chunk. From source (tests): the .ts file, loaded through tsx.
  if (here.endsWith('.ts')) {
    const target = new URL('./walk-worker.ts', here).href;
    const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(target)}); });`;
    return new (workerClass())(code, { eval: true, resourceLimits: WORKER_LIMITS });
  }
  return new (workerClass())(new URL('./walk-worker.js', here), { resourceLimits: WORKER_LIMITS });
}

/** Parks a worker for the next job; one that dies while parked leaves the pool. */
function release(worker: Worker): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  worker.unref();
  idle.push(worker);
}

/**
 * Starts a worker ahead of the first walk (the REPL warms its tools while the user types), so the first Glob or
 * JS Grep does not pay the thread's start-up. Never rejects.
 */
export async function warmWalkWorker(): Promise<void> {
  if (idle.length > 0) return;
  try {
    const worker = spawnWorker();
    release(worker);
    await once(worker, 'online');
  } catch {
    // the first real job will try again and report what fails
  }
}

/** Runs one job; resolves when it finishes, the deadline passes or `signal` aborts (the worker is then ended). */
export function runInWorker(job: WalkJob, signal: AbortSignal, deadlineMs = toolDeadlineMs()): Promise<WalkOutcome> {
  if (signal.aborted) return Promise.resolve({ kind: 'interrupted' });
  const worker = idle.pop() ?? spawnWorker();
  worker.ref();
  const id = nextId++;
  return new Promise<WalkOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: WalkOutcome, reusable: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (reusable) release(worker);
      else {
        worker.removeAllListeners();
        worker.on('error', () => undefined);
        void worker.terminate();
      }
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'interrupted' }, false);
    const timer = setTimeout(() => finish({ kind: 'timeout', afterMs: deadlineMs }, false), deadlineMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { id: number; result: WalkJobResult }) => {
      if (message.id === id) finish({ kind: 'done', result: message.result }, true);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const message =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the search ran out of memory (${WORKER_LIMITS.maxOldGenerationSizeMb} MB); a pattern with many {a,b} groups expands to millions of patterns`
          : error.message;
      finish({ kind: 'failed', message }, false);
    });
    worker.on('exit', (code) => finish({ kind: 'failed', message: `the search thread exited (${code})` }, false));
    worker.postMessage({ id, job });
  });
}
