/**
 * Glob jobs whose matching work is provably small run on the main thread, without a worker thread: a new worker
 * costs ~25 ms of CPU to start and ~45 ms more to load the walker in it (measured, BENCHMARKS.md), which was most
 * of a one-shot `mca -p` Glob step. Everything else still runs in a worker (walk-runner.ts).
 *
 * Why the main thread is safe for these: the walk itself is asynchronous I/O, so the event loop turns between
 * directory reads and the deadline timer and Ctrl-C are served; the only synchronous work that could run long is
 * matching a path against a regular expression. A simple pattern (isSimpleGlob) compiles to one whose work per path
 * is bounded by a low polynomial of the path's length (at most two unbounded wildcards, no extglobs, classes,
 * escapes or nested braces); the fixed ignore patterns are of the same kind; the root .gitignore's prune hints are
 * plain names; .gitignore rules are matched by the `ignore` engine, which LS already runs on the main thread. A job
 * with deny/ask path rules (user or project settings, any picomatch pattern) goes to a worker.
 */
import type { WalkJob } from './walk-job.js';
import type { WalkOutcome } from './walk-runner.js';

/** A pattern longer than this, or with more segments, is not "simple". */
const MAX_PATTERN_CHARS = 256;
const MAX_SEGMENTS = 32;
/** `**` segments plus `*` runs: each is one unbounded wildcard; two keep the per-path work quadratic at most. */
const MAX_UNBOUNDED = 2;
const MAX_SINGLE = 8;
const MAX_ALTERNATIVES = 32;

/** Literal characters, `*`, `?`, `/` and one-level brace lists: nothing of extglobs, classes or escapes. */
const SIMPLE_CHARS = /^[A-Za-z0-9 ._\-/*?{},]+$/;
/** A segment's one brace group: literal alternatives, at least two. */
const BRACE_GROUP = /\{([A-Za-z0-9 ._-]*(?:,[A-Za-z0-9 ._-]*)+)\}/;

/** Whether `pattern` is simple enough that matching it cannot run long on any path (see the module comment). */
export function isSimpleGlob(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_CHARS || !SIMPLE_CHARS.test(pattern)) return false;
  const segments = pattern.split('/');
  if (segments.length > MAX_SEGMENTS || segments.some((segment) => segment === '' || segment === '.')) return false;
  let unbounded = 0;
  let single = 0;
  let alternatives = 1;
  for (const segment of segments) {
    if (segment === '**') {
      unbounded += 1;
      continue;
    }
    if (segment.includes('**')) return false;
    const group = BRACE_GROUP.exec(segment);
    const rest = group ? segment.replace(group[0], '') : segment;
    if (/[{},]/.test(rest)) return false;
    if (group) alternatives *= (group[1] ?? '').split(',').length;
    unbounded += (rest.match(/\*/g) ?? []).length;
    single += (rest.match(/\?/g) ?? []).length;
  }
  return unbounded <= MAX_UNBOUNDED && single <= MAX_SINGLE && alternatives <= MAX_ALTERNATIVES;
}

/** Whether `job` may run on the main thread: a Glob with a simple pattern and no path rules to apply. */
export function runsInline(job: WalkJob): boolean {
  return (
    job.kind === 'glob' &&
    job.walk.screen === undefined &&
    (job.walk.ignore ?? []).every(isSimpleGlob) &&
    job.walk.patterns.every(isSimpleGlob)
  );
}

/**
 * Runs `job` here; resolves when it finishes, the deadline passes or `signal` aborts (the walk is then stopped),
 * with the same outcomes as a worker's run.
 */
export async function runInline(job: WalkJob, signal: AbortSignal, deadlineMs: number): Promise<WalkOutcome> {
  const { runWalkJob } = await import('./walk-job.js');
  if (signal.aborted) return { kind: 'interrupted' };
  const stop = new AbortController();
  return new Promise<WalkOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: WalkOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (outcome.kind !== 'done') stop.abort();
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'interrupted' });
    const timer = setTimeout(() => finish({ kind: 'timeout', afterMs: deadlineMs }), deadlineMs);
    signal.addEventListener('abort', onAbort, { once: true });
    runWalkJob(job, stop.signal).then(
      (result) => finish({ kind: 'done', result }),
      (error: unknown) => finish({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  });
}
