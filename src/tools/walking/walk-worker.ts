/**
 * Entry point of the walking tools' worker thread (built as dist/cli/walk-worker.js): runs one job per message
 * and answers with its result. The thread is reused for later jobs and terminated by its owner when a job runs
 * past its deadline or is interrupted (walk-runner.ts).
 */
import { parentPort } from 'node:worker_threads';
import { loadFastGlob } from '../registry/lazy-modules.js';
import { runWalkJob, type WalkJob, type WalkJobResult } from './walk-job.js';

// Almost every job walks: load the walker while the thread would otherwise wait for its first message.
void loadFastGlob();

parentPort?.on('message', (message: { id: number; job: WalkJob }) => {
  void runWalkJob(message.job).then(
    (result) => parentPort?.postMessage({ id: message.id, result }),
    (error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      const result: WalkJobResult = { kind: 'error', error: { code: 'INTERNAL_ERROR', message: text } };
      parentPort?.postMessage({ id: message.id, result });
    },
  );
});
