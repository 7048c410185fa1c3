import { describe, expect, it } from 'vitest';
import { costMemorySvg } from '../../bench/plot.js';
import type { ReplayMetrics } from '../../bench/replay/driver.js';
import { emptyTotals } from '../../bench/replay/pricing.js';

function metrics(dollars: number, pathsPresent: number, overflows = 0): ReplayMetrics {
  return {
    conversations: 1,
    model: { ...emptyTotals(), dollars },
    summary: emptyTotals(),
    compactions: 0,
    degradations: 0,
    overflows,
    memory: {
      overall: { calls: 4, pathsAsked: 10, pathsPresent, taskPresent: 2, contentAsked: 0, contentPresent: 0 },
      afterFirstCompaction: {
        calls: 0,
        pathsAsked: 0,
        pathsPresent: 0,
        taskPresent: 0,
        contentAsked: 0,
        contentPresent: 0,
      },
    },
    forgetting: { misses: 0, dollars: 0, inputTokens: 0 },
    cacheRewrites: 0,
  };
}

describe('cost-vs-memory plot', () => {
  it('draws one point per strategy, lower cost further left, more memory higher, overflowing ones hollow', () => {
    const svg = costMemorySvg('Days <64k> & more', [
      { name: 'mca', metrics: metrics(2, 9) },
      { name: 'codex', metrics: metrics(1, 6) },
      { name: 'naive', metrics: metrics(4, 10, 3) },
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Days &lt;64k&gt; &amp; more');
    const circles = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="5" fill="([^"]+)"/g)].map((match) => ({
      x: Number(match[1]),
      y: Number(match[2]),
      fill: match[3],
    }));
    expect(circles).toHaveLength(3);
    const [mca, codex, naive] = circles;
    expect(codex!.x).toBeLessThan(mca!.x);
    expect(mca!.x).toBeLessThan(naive!.x);
    expect(mca!.y).toBeLessThan(codex!.y); // 90% drawn above 60%
    expect(naive!.fill).toBe('white');
    expect(mca!.fill).not.toBe('white');
    expect(svg).toContain('1. mca: $2.00, 90%, task 50%');
    expect(svg).toContain('3. naive: $4.00, 100%, task 50%, 3 unsendable');
  });
});
