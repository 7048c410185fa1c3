/**
 * Splits a V8 CPU profile (`node --cpu-prof`) into time windows and says which functions the samples of each
 * window were in. A window is [from, to) in microseconds of the profile's own clock (V8's TimeTicks, which on
 * Linux is CLOCK_MONOTONIC, the clock of `process.hrtime`), so marks taken by another process on that clock fall
 * where they belong. Inclusive time: a sample counts once for every distinct function on its stack.
 */

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileWindow {
  name: string;
  fromUs: number;
  toUs: number;
}

export interface WindowProfile {
  name: string;
  wallMs: number;
  /** Sampled time in the window, in ms (idle included: V8 samples "(idle)" too). */
  sampledMs: number;
  /** Functions by inclusive time in the window, largest first (ties by name): `name (file:line)`. */
  top: Array<{ fn: string; ms: number }>;
}

function label(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url === '' ? '' : ` (${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1})`;
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${file}`;
}

/** Frames that every sample has and that say nothing about the work. */
const NOISE = new Set(['(root)', 'processTicksAndRejections', 'runMicrotasks', 'runNextTicks', 'listOnTimeout']);

export function profileWindows(profile: CpuProfile, windows: readonly ProfileWindow[], top = 12): WindowProfile[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** The distinct function labels on a sample's stack, without the frames every sample has. */
  const stackNames = (sample: number): Set<string> => {
    const names = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (node !== undefined && !NOISE.has(node.callFrame.functionName)) names.add(label(node.callFrame));
    }
    return names;
  };
  const totals = windows.map(() => new Map<string, number>());
  const sampled = windows.map(() => 0);
  // Sample i stands for the interval from its time to the next sample's; an interval that straddles a window edge
  // is split by overlap, so a window never gets more sampled time than its wall time.
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  for (const [index, sample] of profile.samples.entries()) {
    const from = times[index] ?? 0;
    const to = times[index + 1] ?? from + (profile.timeDeltas[index] ?? 0);
    const names = stackNames(sample);
    for (const [window, candidate] of windows.entries()) {
      const ms = (Math.min(to, candidate.toUs) - Math.max(from, candidate.fromUs)) / 1000;
      if (ms <= 0) continue;
      sampled[window] = (sampled[window] ?? 0) + ms;
      const map = totals[window] as Map<string, number>;
      for (const name of names) map.set(name, (map.get(name) ?? 0) + ms);
    }
  }
  return windows.map((window, index) => ({
    name: window.name,
    wallMs: (window.toUs - window.fromUs) / 1000,
    sampledMs: sampled[index] ?? 0,
    top: [...(totals[index] ?? new Map<string, number>())]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, top)
      .map(([fn, ms]) => ({ fn, ms })),
  }));
}
