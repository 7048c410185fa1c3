/**
 * A walking tool's view of its walk job: the result, or the observation the model gets when the job was stopped
 * (TIMEOUT at the deadline, interrupted by the user) or the worker failed. A job runs in a worker thread
 * (walk-runner.ts) unless it is provably cheap to match, then on the main thread (walk-inline.ts).
 */
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { runInline, runsInline } from './walk-inline.js';
import type { WalkJob, WalkJobResult } from './walk-job.js';
import { runInWorker, toolDeadlineMs } from './walk-runner.js';

export type Walked = { ok: true; result: WalkJobResult } | { ok: false; envelope: ToolEnvelope };

export async function runWalk(
  tool: string,
  context: Record<string, unknown>,
  signal: AbortSignal,
  job: WalkJob,
): Promise<Walked> {
  const outcome = runsInline(job) ? await runInline(job, signal, toolDeadlineMs()) : await runInWorker(job, signal);
  if (outcome.kind === 'done') {
    if (outcome.result.kind === 'error') {
      const { code, message } = outcome.result.error;
      return { ok: false, envelope: errorEnvelope(code, message, { context }) };
    }
    return { ok: true, result: outcome.result };
  }
  if (outcome.kind === 'interrupted') {
    return {
      ok: false,
      envelope: errorEnvelope('EXECUTION_ERROR', `${tool} was interrupted.`, { data: { interrupted: true }, context }),
    };
  }
  if (outcome.kind === 'timeout') return { ok: false, envelope: timeoutEnvelope(tool, outcome.afterMs, context) };
  return { ok: false, envelope: errorEnvelope('EXECUTION_ERROR', `${tool} failed: ${outcome.message}`, { context }) };
}

export function timeoutEnvelope(tool: string, afterMs: number, context: Record<string, unknown>): ToolEnvelope {
  return errorEnvelope(
    'TIMEOUT',
    `${tool} was stopped after ${afterMs} ms (its deadline): the pattern may backtrack without end or the tree is ` +
      'too large. Use a simpler pattern, or narrow path and include.',
    { context },
  );
}

/** The line a result carries when permission rules kept files out of it. */
export function withheldNote(count: number, nouns: [string, string] = ['file', 'files']): string {
  return `(${count} ${count === 1 ? nouns[0] : nouns[1]} left out: covered by a deny or ask permission rule.)`;
}
