import { describe, expect, it } from 'vitest';
import { profileWindows, type CpuProfile } from '../../bench/lib/profile-windows.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 9 });

/** root → main → (parse, work → parse); samples every 1,000 µs from t = 10,000. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5] },
    { id: 2, callFrame: frame('main', 'file:///x/dist/cli/main.js'), children: [3, 4] },
    { id: 3, callFrame: frame('parse', 'file:///x/dist/cli/chunk.js') },
    { id: 4, callFrame: frame('work', 'file:///x/dist/cli/chunk.js'), children: [6] },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('parse', 'file:///x/dist/cli/chunk.js') },
  ],
  startTime: 10_000,
  // Sample times: 11,000 12,000 13,000 14,000 15,000 16,000
  samples: [3, 6, 6, 5, 4, 3],
  timeDeltas: [1_000, 1_000, 1_000, 1_000, 1_000, 1_000],
};

describe('profileWindows', () => {
  it('puts each sample in the window of its time and counts a function once per sample, recursion or not', () => {
    const [first, second] = profileWindows(profile, [
      { name: 'a', fromUs: 11_000, toUs: 14_000 },
      { name: 'b', fromUs: 14_000, toUs: 20_000 },
    ]);
    expect(first).toMatchObject({ name: 'a', wallMs: 3, sampledMs: 3 });
    // parse: the sample at 11,000 directly and the two under work; main holds all three; (root) is left out.
    expect(first?.top).toEqual([
      { fn: 'main (main.js:10)', ms: 3 },
      { fn: 'parse (chunk.js:10)', ms: 3 },
      { fn: 'work (chunk.js:10)', ms: 2 },
    ]);
    expect(second).toMatchObject({ name: 'b', wallMs: 6, sampledMs: 3 });
    expect(second?.top).toEqual([
      { fn: 'main (main.js:10)', ms: 2 },
      { fn: '(idle)', ms: 1 },
      { fn: 'parse (chunk.js:10)', ms: 1 },
      { fn: 'work (chunk.js:10)', ms: 1 },
    ]);
  });

  it('drops samples outside every window and keeps only the largest entries', () => {
    const [only] = profileWindows(profile, [{ name: 'late', fromUs: 15_500, toUs: 16_500 }], 1);
    expect(only).toMatchObject({ sampledMs: 1, top: [{ fn: 'main (main.js:10)', ms: 1 }] });
  });

  it('splits a sample whose interval straddles a window edge, so no window has more sampled time than wall time', () => {
    // [13,500, 14,500): half of the work → parse sample at 13,000 and half of the idle sample at 14,000.
    const [edge] = profileWindows(profile, [{ name: 'edge', fromUs: 13_500, toUs: 14_500 }]);
    expect(edge).toMatchObject({ wallMs: 1, sampledMs: 1 });
    expect(edge?.top).toEqual([
      { fn: '(idle)', ms: 0.5 },
      { fn: 'main (main.js:10)', ms: 0.5 },
      { fn: 'parse (chunk.js:10)', ms: 0.5 },
      { fn: 'work (chunk.js:10)', ms: 0.5 },
    ]);
  });
});
