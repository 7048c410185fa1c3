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
import type { WalkedFile } from './walk-files.js';
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
const BRACE_GROUP = /\{([A-Za-z0-9 ._-]+(?:,[A-Za-z0-9 ._-]+)+)\}/;

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

// fast-glob ignore patterns that exclude one plain name at any depth (`**/node_modules/**`).
const EXCLUDED_NAME = /^\*\*\/([A-Za-z0-9._-]+)\/\*\*$/;

/** Whether `job` may run on the main thread: a Glob with one simple pattern and no path rules to apply. */
export function runsInline(job: WalkJob): boolean {
  if (job.kind !== 'glob') return false;
  const { walk } = job;
  return (
    walk.screen === undefined &&
    walk.dot &&
    walk.patternsFromRoot !== true &&
    walk.patterns.length === 1 &&
    walk.patterns.every(isSimpleGlob) &&
    (walk.ignore ?? []).every((pattern) => EXCLUDED_NAME.test(pattern))
  );
}

/**
 * Runs a job runsInline accepted, here; resolves when it finishes, the deadline passes or `signal` aborts (the walk
 * is then stopped), with the same outcomes as a worker's run.
 */
export async function runInline(job: WalkJob, signal: AbortSignal, deadlineMs: number): Promise<WalkOutcome> {
  const { walkSimple } = await import('./walk-simple.js');
  if (signal.aborted) return { kind: 'interrupted' };
  if (job.kind !== 'glob') return { kind: 'failed', message: 'only a Glob runs on the main thread' };
  const { walk } = job;
  const stop = new AbortController();
  const listed = async (): Promise<WalkedFile[]> => {
    const files: WalkedFile[] = [];
    const walker = walkSimple({
      projectRoot: walk.projectRoot,
      baseRel: walk.baseRel,
      pattern: walk.patterns[0] ?? '',
      excludeNames: (walk.ignore ?? []).map((pattern) => EXCLUDED_NAME.exec(pattern)?.[1] ?? ''),
      signal: stop.signal,
    });
    for await (const file of walker) files.push(file);
    return files;
  };
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
    listed().then(
      (files) => finish({ kind: 'done', result: { kind: 'glob', files, tally: { withheld: 0, outside: 0 } } }),
      (error: unknown) => finish({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  });
}
