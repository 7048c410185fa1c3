/** Markdown tables of each bench section. */
import type { ReplayResult } from './replay-bench.js';
import type { ScalingResult } from './scaling-bench.js';
import type { StartupResult } from './startup-bench.js';
import type { ToolsResult } from './tools-bench.js';
import { formatInt, formatMs, ratio } from './lib/stats.js';

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function replayTables(result: ReplayResult): string {
  const parts: string[] = [];
  for (const workload of result.workloads) {
    const naive = workload.byStrategy.naive;
    const ftc = workload.byStrategy['full-then-compact'];
    const rows = Object.entries(workload.byStrategy).map(([name, m]) => [
      `\`${name}\``,
      formatInt(m.calls),
      formatInt(m.inputTokens),
      formatInt(m.weightedTokens),
      `${ratio(m.weightedTokens, naive.weightedTokens)} / ${ratio(m.weightedTokens, ftc.weightedTokens)}`,
      `${formatInt(m.cacheRead)} / ${formatInt(m.cacheWritten)} / ${formatInt(m.uncached)}`,
      formatInt(m.peakRequest),
      formatInt(m.compactions),
      formatInt(m.overflows),
      name.startsWith('mca') ? `${m.degradations.level1} / ${m.degradations.level2} / ${m.degradations.level3}` : '—',
      name.startsWith('mca') ? `${formatMs(m.buildMedianMs, 3)} / ${formatMs(m.buildP95Ms, 3)}` : '—',
    ]);
    parts.push(
      `### ${workload.label}, ${formatInt(workload.window)}-token window (${workload.conversations} conversations)\n\n` +
        table(
          [
            'strategy',
            'model calls',
            'input tokens',
            'cost-weighted tokens',
            'vs naive / vs full-then-compact',
            'cache read / written / uncached',
            'peak request',
            'compactions',
            'overflows',
            'degradation L1 / L2 / L3',
            'build median / p95',
          ],
          rows,
        ),
    );
  }
  return parts.join('\n\n');
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
        'heap Δ per build',
      ],
      result.rows.map((row) => [
        formatInt(row.messages),
        formatInt(row.historyTokens),
        formatMs(row.buildMedianMs, 3),
        formatMs(row.buildP95Ms, 3),
        formatMs(row.stepMedianMs, 3),
        formatMs(row.stepP95Ms, 3),
        `${row.heapDeltaMb.toFixed(2)} MB`,
      ]),
    ) + `\n\nGrowth: **${result.verdict}**.`
  );
}

export function startupTable(result: StartupResult): string {
  return table(
    ['command', `median of ${result.runs}`, 'vs `node -e 0`'],
    [
      ['`node -e 0`', formatMs(result.nodeMs, 1), '1.00×'],
      ['`mca --version`', formatMs(result.versionMs, 1), ratio(result.versionMs, result.nodeMs)],
      ['`mca --help`', formatMs(result.helpMs, 1), ratio(result.helpMs, result.nodeMs)],
      ['`mca -p` spawn → first POST /v1/messages', formatMs(result.printFirstRequestMs, 1), '—'],
      [
        '`mca -p` one-step task, total wall time',
        formatMs(result.printTotalMs, 1),
        ratio(result.printTotalMs, result.nodeMs),
      ],
      [`\`mca -p\` peak RSS (${result.rssMethod})`, `${result.printPeakRssMb.toFixed(1)} MB`, '—'],
    ],
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
