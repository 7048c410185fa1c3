/**
 * Long sessions stay small (issue 42): once this process has run LONG_SESSION_STEPS agent steps, V8 is told to favour
 * memory over speed (`--optimize-for-size`: V8 keeps its heaps smaller, at some cost in speed). A long session still
 * makes garbage at every step (the request's new parts, the body sent), and V8's default growth let the heap keep it.
 * Measured in the 1,000-step soak with requests made of the previous step's parts (BENCHMARKS.md, issue 42 round four
 * (2)): RSS at the end 1.14–1.34× its value at step 100 with the flag, 1.56–1.89× without; CPU per step in the last
 * 100 steps 0.96–1.07× the first 100 with it, 0.76–0.93× without. Short runs never switch, so start-up is untouched.
 * Checked again once a long turn held each result once (one copy per result): without it 1.64–1.77× in one turn.
 * The flag is process-wide; V8 reads it at each collection.
 */
import { setFlagsFromString } from 'node:v8';

export const LONG_SESSION_STEPS = 50;

let steps = 0;

/** Counts one agent step of any session in this process; the LONG_SESSION_STEPS-th switches V8 (once). */
export function noteAgentStep(): void {
  steps += 1;
  if (steps === LONG_SESSION_STEPS) setFlagsFromString('--optimize-for-size');
}
