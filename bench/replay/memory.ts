/**
 * The memory figure (BENCHMARKS.md "Memory"): at each model call, the file paths the recorded action of that step
 * names (path-extraction.ts) that already appeared earlier in the conversation, and which of them the request
 * carries; and whether the request carries the current task's text. What "appeared earlier" means depends only on
 * the recorded conversation (the user texts, and each earlier step's thought, call and output), never on a strategy.
 */
import type { Segment } from './prefix-cache.js';
import { carriesNeed, type ContentNeed } from './fidelity.js';
import { pathsNamedBy } from './path-extraction.js';
import type { ReplayStep, ReplayTask } from './strategy.js';

export interface MemoryTotals {
  /** Model calls measured. */
  calls: number;
  /** Paths asked for (named by the step's action and seen earlier), summed over calls. */
  pathsAsked: number;
  /** Of those, present in the request. */
  pathsPresent: number;
  /** Calls whose request carries the current task's text verbatim. */
  taskPresent: number;
  /** Earlier content asked for (an Edit's old text, a re-read file's earlier view; fidelity.ts), summed over calls. */
  contentAsked: number;
  /** Of those, carried by the request. */
  contentPresent: number;
}

export function emptyMemory(): MemoryTotals {
  return { calls: 0, pathsAsked: 0, pathsPresent: 0, taskPresent: 0, contentAsked: 0, contentPresent: 0 };
}

/** For every step of a conversation: the paths its action names that appeared earlier in the conversation. */
export function recalledPaths(conversation: readonly ReplayTask[]): Map<ReplayStep, string[]> {
  const probes = new Map<ReplayStep, string[]>();
  const earlier: string[] = [];
  const seenBefore = (path: string) => earlier.some((text) => text.includes(path));
  for (const task of conversation) {
    for (const turn of task.turns) {
      earlier.push(turn.text);
      for (const step of turn.steps) {
        const named = step.call === undefined ? [] : pathsNamedBy(step.call);
        probes.set(step, named.filter(seenBefore));
        earlier.push(step.thought, step.recordedCall ?? '', step.action?.envelope.text ?? '');
      }
    }
  }
  return probes;
}

function carries(segments: readonly Segment[], text: string): boolean {
  return segments.some((segment) => segment.text.includes(text));
}

/** Adds one call's figure: how many of `paths` and whether `task` the request carries. */
export function addMemory(
  totals: MemoryTotals,
  segments: readonly Segment[],
  paths: readonly string[],
  task: string,
  needs: readonly ContentNeed[] = [],
): void {
  totals.calls += 1;
  for (const need of needs) {
    if (need.kind === 'path') continue;
    totals.contentAsked += 1;
    if (carriesNeed(segments, need)) totals.contentPresent += 1;
  }
  totals.pathsAsked += paths.length;
  for (const path of paths) if (carries(segments, path)) totals.pathsPresent += 1;
  if (task !== '' && carries(segments, task)) totals.taskPresent += 1;
}
