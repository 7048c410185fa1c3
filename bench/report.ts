/** Renders BENCHMARKS.md: machine, method, a targets table with ✓/✗, then each section's tables. */
import type { Machine } from './lib/machine.js';
import { formatInt, formatMs } from './lib/stats.js';
import type { ReplayResult } from './replay-bench.js';
import { scalingTable, table, toolsTable, workloadTables } from './report-tables.js';
import { startupSection, startupTargetRows } from './report-startup.js';
import type { ScalingResult } from './scaling-bench.js';
import type { StartupResult } from './startup-bench.js';
import type { ToolsResult } from './tools-bench.js';
import type { McpBenchResult } from './mcp-bench.js';
import { checkpointSection, type CheckpointBenchResult } from './checkpoint-bench.js';
import { contextTargetsSection } from './report-context-targets.js';
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
  mcp?: McpBenchResult;
  checkpoints?: CheckpointBenchResult;
}

/** Section 5: MCP start-up (time to first request) and per-call overhead (bench/mcp-bench.ts). */
function mcpSection(mcp: McpBenchResult): string[] {
  return [
    '## 5. MCP',
    table(
      [
        '',
        'no MCP server',
        'three stdio servers (everything, filesystem, memory), cold',
        'the same, tool lists remembered',
      ],
      [
        [
          '`mca -p` spawn → first request, median ms',
          formatMs(mcp.firstRequestNoneMs, 0),
          formatMs(mcp.firstRequestThreeMs, 0),
          formatMs(mcp.firstRequestRememberedMs, 0),
        ],
        [
          '`mca -p` wall time, median ms',
          formatMs(mcp.wallNoneMs, 0),
          formatMs(mcp.wallThreeMs, 0),
          formatMs(mcp.wallRememberedMs, 0),
        ],
      ],
    ),
    table(
      ['one `echo` call (server-everything, stdio), mean over ' + formatInt(mcp.calls), 'ms'],
      [
        ['client library `callTool` alone', formatMs(mcp.directCallMs)],
        ["through mca's registry (ajv check, decision point, envelope)", formatMs(mcp.registryCallMs)],
        ["mca's own overhead per call", formatMs(mcp.registryCallMs - mcp.directCallMs)],
      ],
    ),
    `Medians over ${mcp.runs} rounds after a warm-up round. The three servers start concurrently while mca loads. ` +
      'Cold (no remembered tool lists), the first request waits until all have listed their tools (at most ' +
      'MCP_TIMEOUT); with the lists remembered by the previous run (MCA_HOME/mcp-tools) it goes while they start.',
  ];
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
  const thousand = results.scaling?.rows.find((row) => row.messages >= 1_000 && row.messages < 2_000);
  if (thousand) {
    rows.push({
      target: 'build ≤ 5 ms p95 at 1,000 messages',
      figure: formatMs(thousand.buildP95Ms, 2),
      met: thousand.buildP95Ms <= 5,
    });
  }
  if (results.startup) rows.push(...startupTargetRows(results.startup));
  const tools = results.tools;
  if (tools?.rawRg && tools.grepRipgrep) {
    const grep = tools.grepRipgrep.medianMs / tools.rawRg.medianMs;
    rows.push({ target: 'Grep with rg ≤ 1.5× raw rg', figure: `${grep.toFixed(2)}×`, met: grep <= 1.5 });
  }
  return rows;
}

/** Where each workload's plot is, relative to the report (by workload slug). */
export type PlotLinks = Readonly<Record<string, string>>;

function replaySection(replay: ReplayResult, plots: PlotLinks): string[] {
  return [
    '## 1. Context replay',
    `${replay.sessions} recorded sessions from \`${replay.dataDir}\`, ${replay.steps} model calls per workload (more in revisit days, whose returns replay steps again) ` +
      `(${replay.droppedNags} harness nags dropped; ${formatInt(replay.removedInstructionTokens)} tokens of recording-harness ` +
      `instructions removed from each task on average); L1 = ${formatInt(replay.systemTokens)} tokens, the same for ` +
      `every strategy. Cost: every model call and every summary call, its request through the same prompt-cache ` +
      `model and its output tokens, at ${replay.pricedModel} prices (input $3, output $15 per million tokens; cache ` +
      'write 1.25×, read 0.1× the input price), and with forgetting charged: one more call for each piece of earlier ' +
      'content or path a request lacked. The figures are token counts, not timings: the load of the shared ' +
      "machine does not change them. The context engine's targets are checked right below; the tables after them " +
      'measure. Method: "How this is measured" below.',
    ...contextTargetsSection(replay),
    ...replay.workloads.map((workload) => workloadTables(workload, plots[workload.slug])),
  ];
}

export function renderReport(results: BenchResults, plots: PlotLinks = {}): string {
  const { machine } = results;
  const sections: string[] = [
    '# mca benchmarks',
    `Latest run: **${results.date}** · \`${results.command}\` · ${results.durationS.toFixed(0)} s\n\n` +
      `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, ${machine.os}, Node ${machine.node}; ` +
      `1-minute load average at start: ${machine.load}. The machine is shared with other work running at the same ` +
      'time, so the timings (sections 2–5) are noisy when the load is high; the replay (section 1) counts tokens and ' +
      'is not affected.\n\n' +
      'This file is rewritten by `npm run bench` (`-- --quick` for a short run, `-- --only replay,scaling,startup,tools,mcp,checkpoints`, ' +
      '`-- --runs N` rounds of the start-up section, `-- --data DIR` to replay other recordings, `-- --json FILE` for ' +
      'every figure as JSON). Targets are what we aim ' +
      'for; figures are what this run measured. Nothing here is tuned by hand.',
    '## Targets',
    table(
      ['target', 'this run', ''],
      targetRows(results).map((row) => [row.target, row.figure, check(row.met)]),
    ),
  ];
  if (results.replay) sections.push(...replaySection(results.replay, plots));
  if (results.scaling) sections.push('## 2. Scaling of ContextBuilder.build', scalingTable(results.scaling));
  if (results.startup) sections.push('## 3. Start-up', ...startupSection(results.startup));
  if (results.tools) sections.push('## 4. Tools', toolsTable(results.tools));
  if (results.mcp) sections.push(...mcpSection(results.mcp));
  if (results.checkpoints) sections.push(...checkpointSection(results.checkpoints));
  sections.push(METHOD);
  return sections.join('\n\n') + '\n';
}
