/**
 * The cost-vs-memory plot of one replay workload as a self-contained SVG: x = dollars of all calls (model and
 * summary) plus the forgetting charge, y = share of recalled file paths the requests carried. One numbered point per strategy, explained in a
 * legend with its cost, memory and task figures; a strategy with requests over the window is drawn hollow.
 */
import { chargedDollars, pathShare, taskShare, type ReplayMetrics } from './replay/driver.js';

export interface PlotPoint {
  name: string;
  metrics: ReplayMetrics;
}

const WIDTH = 960;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 360, top: 40, bottom: 55 };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : '—';
}

/** The lowest share on the y axis: 5% steps below the lowest point, never above 95%. */
function axisFloor(shares: readonly number[]): number {
  const lowest = Math.min(...shares, 1);
  return Math.min(0.95, Math.max(0, Math.floor((lowest - 0.02) * 20) / 20));
}

export function costMemorySvg(title: string, points: readonly PlotPoint[]): string {
  const costs = points.map((point) => chargedDollars(point.metrics));
  const shares = points.map((point) => pathShare(point.metrics.memory.overall));
  const maxCost = Math.max(...costs, 0.01) * 1.1;
  const minShare = axisFloor(shares.filter(Number.isFinite));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (cost: number) => MARGIN.left + (cost / maxCost) * plotWidth;
  const y = (share: number) => MARGIN.top + (1 - (share - minShare) / (1 - minShare)) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotHeight}" x2="${MARGIN.left + plotWidth}" y2="${MARGIN.top + plotHeight}" stroke="black"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotHeight}" stroke="black"/>`,
  ];
  for (let tick = 0; tick <= 5; tick += 1) {
    const cost = (maxCost * tick) / 5;
    const share = minShare + ((1 - minShare) * tick) / 5;
    parts.push(
      `<text x="${x(cost).toFixed(1)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">$${cost.toFixed(2)}</text>`,
      `<line x1="${MARGIN.left - 4}" y1="${y(share).toFixed(1)}" x2="${MARGIN.left + plotWidth}" y2="${y(share).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 8}" y="${(y(share) + 4).toFixed(1)}" text-anchor="end">${percent(share)}</text>`,
    );
  }
  parts.push(
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 12}" text-anchor="middle">cost of all calls (model + summary), dollars: lower is better</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">recalled paths in the request: higher is better</text>`,
    `<text x="${WIDTH - MARGIN.right + 20}" y="${MARGIN.top}" font-weight="bold">strategy: cost, paths, task text</text>`,
  );
  /** Points drawn at the same place so far, so coincident points get their numbers side by side. */
  const drawnAt = new Map<string, number>();
  points.forEach((point, index) => {
    const share = shares[index] ?? Number.NaN;
    const cost = costs[index] ?? 0;
    const unsendable = point.metrics.overflows > 0;
    const colour = point.name === 'mca' ? '#d62728' : '#1f77b4';
    const number = index + 1;
    const legend =
      `${number}. ${point.name}: $${cost.toFixed(2)}, ${percent(share)}, task ${percent(taskShare(point.metrics.memory.overall))}` +
      (unsendable ? `, ${point.metrics.overflows} unsendable` : '');
    parts.push(
      `<text x="${WIDTH - MARGIN.right + 20}" y="${MARGIN.top + 20 + index * 18}" fill="${colour}" font-size="11">${escapeXml(legend)}</text>`,
    );
    if (!Number.isFinite(share)) return;
    const cx = x(cost);
    const cy = y(share);
    const place = `${Math.round(cx / 20)}:${Math.round(cy / 20)}`;
    const before = drawnAt.get(place) ?? 0;
    drawnAt.set(place, before + 1);
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="5" fill="${unsendable ? 'white' : colour}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${(cx + 7 + before * 12).toFixed(1)}" y="${(cy - 7).toFixed(1)}" fill="${colour}">${number}</text>`,
    );
  });
  parts.push(
    `<text x="${WIDTH - MARGIN.right + 20}" y="${MARGIN.top + 40 + points.length * 18}" fill="#555">hollow: some requests over the window</text>`,
    '</svg>',
  );
  return parts.join('\n') + '\n';
}
