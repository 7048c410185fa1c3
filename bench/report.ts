/** Renders BENCHMARKS.md: machine, method, a targets table with ✓/✗, then each section's tables. */
import type { Machine } from './lib/machine.js';
import { formatMs } from './lib/stats.js';
import type { ReplayResult } from './replay-bench.js';
import { replayTables, scalingTable, startupTable, table, toolsTable } from './report-tables.js';
import type { ScalingResult } from './scaling-bench.js';
import type { StartupResult } from './startup-bench.js';
import type { ToolsResult } from './tools-bench.js';
import { METHOD } from './report-method.js';

export interface BenchResults {
  date: string;
  machine: Machine;
  command: string;
  durationS: number;
  replay?: ReplayResult;
  scaling?: ScalingResult;
  startup?: StartupResult;
  tools?: ToolsResult;
}

interface TargetRow {
  target: string;
  figure: string;
  met: boolean;
}

function check(met: boolean): string {
  return met ? '✓' : '✗';
}

export function targetRows(results: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const workload of results.replay?.workloads ?? []) {
    if (!workload.label.startsWith('Long days')) continue;
    const { naive, mca } = workload.byStrategy;
    const ftc = workload.byStrategy['full-then-compact'];
    const at = `long days @ ${workload.window / 1000}k`;
    const vsFtc = mca.weightedTokens / ftc.weightedTokens;
    const vsNaive = mca.weightedTokens / naive.weightedTokens;
    rows.push({
      target: `${at}: mca cost-weighted ≤ 0.5× full-then-compact`,
      figure: `${vsFtc.toFixed(2)}×`,
      met: vsFtc <= 0.5,
    });
    rows.push({
      target: `${at}: mca cost-weighted ≤ 0.25× naive`,
      figure: `${vsNaive.toFixed(2)}×`,
      met: vsNaive <= 0.25,
    });
    rows.push({ target: `${at}: mca zero overflows`, figure: `${mca.overflows}`, met: mca.overflows === 0 });
  }
  const thousand = results.scaling?.rows.find((row) => row.messages >= 1_000 && row.messages < 2_000);
  if (thousand) {
    rows.push({
      target: 'build ≤ 5 ms p95 at 1,000 messages',
      figure: formatMs(thousand.buildP95Ms, 2),
      met: thousand.buildP95Ms <= 5,
    });
  }
  const startup = results.startup;
  if (startup) {
    const version = startup.versionMs / startup.nodeMs;
    rows.push({ target: '`mca --version` ≤ 1.3× `node -e 0`', figure: `${version.toFixed(2)}×`, met: version <= 1.3 });
    rows.push({
      target: '`mca -p` first request ≤ 250 ms after exec',
      figure: formatMs(startup.printFirstRequestMs, 0),
      met: startup.printFirstRequestMs <= 250,
    });
    rows.push({
      target: 'peak RSS of a one-step `-p` ≤ 120 MB',
      figure: `${startup.printPeakRssMb.toFixed(1)} MB`,
      met: startup.printPeakRssMb <= 120,
    });
  }
  const tools = results.tools;
  if (tools?.rawRg && tools.grepRipgrep) {
    const grep = tools.grepRipgrep.medianMs / tools.rawRg.medianMs;
    rows.push({ target: 'Grep with rg ≤ 1.5× raw rg', figure: `${grep.toFixed(2)}×`, met: grep <= 1.5 });
  }
  return rows;
}

export function renderReport(results: BenchResults): string {
  const { machine } = results;
  const sections: string[] = [
    '# mca benchmarks',
    `Latest run: **${results.date}** · \`${results.command}\` · ${results.durationS.toFixed(0)} s\n\n` +
      `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, ${machine.os}, Node ${machine.node}; ` +
      `1-minute load average at start: ${machine.load} (other work shares this machine; timings are noisy when it is high).\n\n` +
      'This file is rewritten by `npm run bench` (`-- --quick` for a short run, `-- --only replay,scaling,startup,tools`). ' +
      'Targets are what we aim for; figures are what this run measured. Nothing here is tuned by hand.',
    '## Targets',
    table(
      ['target', 'this run', ''],
      targetRows(results).map((row) => [row.target, row.figure, check(row.met)]),
    ),
  ];
  if (results.replay) {
    const replay = results.replay;
    sections.push(
      '## 1. Context replay',
      `${replay.sessions} recorded sessions, ${replay.steps} model calls (${replay.droppedNags} harness nags dropped); ` +
        `L1 = ${replay.systemTokens.toLocaleString('en-US')} tokens, the same for every strategy. ` +
        'Cost-weighted = 0.1·cache read + 1.25·cache write + 1·uncached; ratios compare cost-weighted tokens.',
      replayTables(replay),
    );
  }
  if (results.scaling) sections.push('## 2. Scaling of ContextBuilder.build', scalingTable(results.scaling));
  if (results.startup) sections.push('## 3. Start-up', startupTable(results.startup));
  if (results.tools) sections.push('## 4. Tools', toolsTable(results.tools));
  sections.push(METHOD);
  return sections.join('\n\n') + '\n';
}
