/** Markdown tables of each bench section. */
import {
  chargedDollars,
  contentShare,
  pathShare,
  taskShare,
  totalDollars,
  type ReplayMetrics,
} from './replay/driver.js';
import type { WorkloadResult } from './replay-bench.js';
import type { ScalingResult } from './scaling-bench.js';
import type { ToolsResult } from './tools-bench.js';
import { formatInt, formatMs, ratio } from './lib/stats.js';

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '—';
}

function dollars(value: number): string {
  return `$${value.toFixed(2)}`;
}

/**
 * Tokens a strategy wrote to the cache (model and summary calls), and the ratio to what writing each byte of the
 * conversation once costs: the naive transcript's writes (it never changes what it sent).
 */
function written(metrics: ReplayMetrics, once: number | undefined): string {
  const tokens = metrics.model.cacheWritten + metrics.summary.cacheWritten;
  return once === undefined || once <= 0 ? formatInt(tokens) : `${formatInt(tokens)} (${(tokens / once).toFixed(2)}×)`;
}

function strategyLabel(name: string, metrics: ReplayMetrics): string {
  if (name !== 'naive') return `\`${name}\``;
  return metrics.overflows > 0 ? '`naive` (reference; unsendable)' : '`naive` (reference)';
}

/** One workload: cost and memory side by side, then where the tokens went. `plot` is the SVG's relative path. */
export function workloadTables(workload: WorkloadResult, plot?: string): string {
  const entries = Object.entries(workload.byStrategy) as Array<[string, ReplayMetrics]>;
  const mca = workload.byStrategy.mca;
  const once = workload.byStrategy.naive?.model.cacheWritten;
  const both = (share: (memory: ReplayMetrics['memory']['overall']) => number, m: ReplayMetrics) =>
    `${percent(share(m.memory.overall))} / ${percent(share(m.memory.afterFirstCompaction))}`;
  const main = table(
    [
      'strategy',
      'cost with forgetting charged',
      'vs mca',
      'cost without (model + summary calls)',
      'forgetting: misses ($)',
      'overflows',
      'cache rewrites',
      'cache written: tokens (× each byte once)',
      'model / summary calls',
      'compactions',
      'degradation events',
      'peak request',
      'path recall: all / after 1st compaction',
      'content recall: all / after 1st compaction',
      'task text in request: all / after 1st compaction',
    ],
    entries.map(([name, m]) => [
      strategyLabel(name, m),
      dollars(chargedDollars(m)),
      ratio(chargedDollars(m), chargedDollars(mca)),
      `${dollars(totalDollars(m))} (${dollars(m.model.dollars)} + ${dollars(m.summary.dollars)})`,
      `${formatInt(m.forgetting.misses)} (${dollars(m.forgetting.dollars)})`,
      formatInt(m.overflows),
      formatInt(m.cacheRewrites),
      written(m, once),
      `${formatInt(m.model.calls)} / ${formatInt(m.summary.calls)}`,
      formatInt(m.compactions),
      formatInt(m.degradations),
      formatInt(m.model.peakRequest),
      both(pathShare, m),
      both(contentShare, m),
      both(taskShare, m),
    ]),
  );
  const tokens = table(
    [
      'strategy',
      'model calls: input tokens',
      'cache read / written / uncached',
      'output tokens',
      'summary calls: input tokens',
      'cache read / written / uncached',
      'output tokens',
    ],
    entries.map(([name, m]) => [
      `\`${name}\``,
      formatInt(m.model.inputTokens),
      `${formatInt(m.model.cacheRead)} / ${formatInt(m.model.cacheWritten)} / ${formatInt(m.model.uncached)}`,
      formatInt(m.model.outputTokens),
      formatInt(m.summary.inputTokens),
      `${formatInt(m.summary.cacheRead)} / ${formatInt(m.summary.cacheWritten)} / ${formatInt(m.summary.uncached)}`,
      formatInt(m.summary.outputTokens),
    ]),
  );
  const asked = mca.memory.overall.pathsAsked;
  const content = mca.memory.overall.contentAsked;
  const heading =
    `### ${workload.label}, ${formatInt(workload.window)}-token window ` +
    `(${workload.conversations} conversations, ${formatInt(workload.userTurns)} user turns, ` +
    `output limit ${formatInt(workload.maxOutputTokens)})`;
  return [
    heading,
    main,
    `${formatInt(asked)} recalled paths and ${formatInt(content)} pieces of earlier content asked for in ` +
      `${formatInt(mca.memory.overall.calls)} model calls.` +
      (plot ? ` Plot: [cost vs memory](${plot}).` : ''),
    plot ? `![cost vs memory, ${workload.label}, ${formatInt(workload.window)}](${plot})` : '',
    `<details><summary>Tokens</summary>\n\n${tokens}\n\n</details>`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function scalingTable(result: ScalingResult): string {
  return (
    table(
      [
        'messages',
        'L3 tokens',
        'build median',
        'build p95',
        'step median (closedHistory + build)',
        'step p95',
        'cold build median / p95 (new builder)',
        'heap Δ per build',
      ],
      result.rows.map((row) => [
        formatInt(row.messages),
        formatInt(row.historyTokens),
        formatMs(row.buildMedianMs, 3),
        formatMs(row.buildP95Ms, 3),
        formatMs(row.stepMedianMs, 3),
        formatMs(row.stepP95Ms, 3),
        `${formatMs(row.coldMedianMs, 3)} / ${formatMs(row.coldP95Ms, 3)}`,
        `${row.heapDeltaMb.toFixed(2)} MB`,
      ]),
    ) + `\n\nGrowth: **${result.verdict}**.`
  );
}

export function toolsTable(result: ToolsResult): string {
  const rows: string[][] = [];
  if (result.rawRg && result.grepRipgrep) {
    rows.push(['raw `rg -n -i needle_marker .`', formatMs(result.rawRg.medianMs, 1), '1.00×']);
    rows.push([
      'Grep tool, ripgrep engine',
      formatMs(result.grepRipgrep.medianMs, 1),
      ratio(result.grepRipgrep.medianMs, result.rawRg.medianMs),
    ]);
    rows.push([
      'Grep tool, JS engine',
      formatMs(result.grepJs.medianMs, 1),
      ratio(result.grepJs.medianMs, result.rawRg.medianMs),
    ]);
  } else {
    rows.push(['raw `rg`', 'rg not on PATH', '—']);
    rows.push(['Grep tool, JS engine', formatMs(result.grepJs.medianMs, 1), '—']);
  }
  rows.push(['raw fast-glob `**/*.ts`', formatMs(result.rawFastGlob.medianMs, 1), '1.00×']);
  rows.push([
    `Glob tool \`**/*.ts\` (${formatInt(result.globTotal)} files)`,
    formatMs(result.glob.medianMs, 1),
    ratio(result.glob.medianMs, result.rawFastGlob.medianMs),
  ]);
  rows.push(['Read lines 1–2,000 of a 100,000-line file', formatMs(result.readFirst.medianMs, 1), '—']);
  rows.push(['Read lines 98,001–100,000 of the same file', formatMs(result.readLast.medianMs, 1), '—']);
  return (
    `${formatInt(result.files)} generated files (40 lines each, ${formatInt(result.grepMatches)} matching lines).\n\n` +
    table(['operation', 'median', 'vs raw'], rows)
  );
}
