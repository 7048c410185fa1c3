/**
 * Long sessions stay small (issue 42): once this process has run LONG_SESSION_STEPS agent steps, V8 is told to favour
 * memory over speed (`--optimize-for-size`: V8 keeps its heaps smaller, at some cost in speed). A session that long makes garbage at every step (each request is rebuilt and encoded), and V8's
 * default growth let the heap keep that garbage: in the 1,000-step soak RSS grew 1.5–2× while the live heap grew by
 * 3 MB. Measured there (BENCHMARKS.md, issue 42 round four): RSS at the end 98–102 MB instead of 129–139 MB, for more
 * CPU per step late in one 1,000-step turn (11 ms instead of 7) and none over many shorter turns. Short runs
 * never switch, so start-up is untouched. The flag is process-wide; V8 reads it at each collection.
 */
import { setFlagsFromString } from 'node:v8';

export const LONG_SESSION_STEPS = 50;

let steps = 0;

/** Counts one agent step of any session in this process; the LONG_SESSION_STEPS-th switches V8 (once). */
export function noteAgentStep(): void {
  steps += 1;
  if (steps === LONG_SESSION_STEPS) setFlagsFromString('--optimize-for-size');
}
