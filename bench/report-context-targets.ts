/**
 * The context engine's targets (issues 13 and 30), checked on every replay workload where any strategy compacts:
 * zero overflows; memory (path recall, content recall, task text) at least that of the best peer with zero
 * overflows; cost with the forgetting charge at most 0.8× the cheapest peer with zero overflows; the summary
 * request reading at least 90% of its input from the cache. Computed from the run's
 * figures, never written by hand; the policy text says what mca does and why.
 */
import { chargedDollars, contentShare, pathShare, taskShare, type ReplayMetrics } from './replay/driver.js';
import type { StrategyName } from './replay/strategy.js';
import type { ReplayResult, WorkloadResult } from './replay-bench.js';
import { percent, table } from './report-tables.js';

const PEERS: readonly StrategyName[] = ['claude-code', 'codex', 'opencode', 'gemini-cli'];
const COST_FACTOR = 0.8;
const SUMMARY_CACHE_SHARE = 0.9;

export const POLICY_TEXT =
  "**mca's policy (engine v4, issue 36).** Every full tool result is kept in tool memory by reference; history keeps " +
  'the compressed result with its ref, but no result is forgotten without pressure: below the threshold the request ' +
  'shows every earlier result in full, and (text protocol) a closed round stays exactly as its turn was sent, so ' +
  'each request starts with the previous one and each byte is written to the cache once. Compaction triggers at ' +
  'the profile threshold at the start of a turn (**0.5 of the window**, src/config/model-profiles.ts); within a ' +
  "turn the prompt may grow to spec A6's 0.8 of the window before the turn's older steps or the history shrink. A " +
  'compaction archives the rounds beyond the newest 10 (spec A4) into one archive entry (the summary, asked on the ' +
  'cached prefix, and the deterministic facts ledger) and decides in the same rewrite, by value, what each kept ' +
  'result becomes, until the kept rounds fit half the budget: stale Reads first (the lines around later edits), ' +
  'then bulky results outside the working set (files read or changed in the newest 3 rounds) to their compressed ' +
  'form, oldest first, then to one line, then the rest, the working set last, the newest round never; every shrunk ' +
  'result keeps its ref. Over budget, the ladder shrinks older results, then the newest closed round, and only then ' +
  'moves more rounds into the same entry. Archive entries past 25% of the budget fold into an index. These ' +
  'are design choices argued from the cost model, not fitted to these recordings; the figures will be measured on ' +
  'other recordings. Targets below are computed by this run.';

function cheapestPeer(workload: WorkloadResult): { name: StrategyName; dollars: number } | undefined {
  const candidates = PEERS.map((name) => ({ name, metrics: workload.byStrategy[name] }))
    .filter((entry): entry is { name: StrategyName; metrics: ReplayMetrics } => entry.metrics !== undefined)
    .filter((entry) => entry.metrics.overflows === 0)
    .map((entry) => ({ name: entry.name, dollars: chargedDollars(entry.metrics) }));
  return candidates.sort((a, b) => a.dollars - b.dollars)[0];
}

function bestPeer(workload: WorkloadResult, share: (metrics: ReplayMetrics) => number): number {
  const values = PEERS.map((name) => workload.byStrategy[name])
    .filter((metrics): metrics is ReplayMetrics => metrics !== undefined && metrics.overflows === 0)
    .map(share)
    .filter(Number.isFinite);
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

function mark(met: boolean): string {
  return met ? '✓' : '✗';
}

function workloadRows(workload: WorkloadResult): string[][] {
  const mca = workload.byStrategy.mca;
  if (mca === undefined) return [];
  const name = `${workload.label}, ${workload.window.toLocaleString('en-US')}`;
  const rows: string[][] = [[name, 'zero overflows', String(mca.overflows), mark(mca.overflows === 0)]];
  const paths = pathShare(mca.memory.overall);
  const bestPaths = bestPeer(workload, (metrics) => pathShare(metrics.memory.overall));
  rows.push([
    name,
    'path recall ≥ best peer',
    `${percent(paths)} vs ${percent(bestPaths)}`,
    mark(!(paths < bestPaths)),
  ]);
  const content = contentShare(mca.memory.overall);
  const bestContent = bestPeer(workload, (metrics) => contentShare(metrics.memory.overall));
  rows.push([
    name,
    'content recall ≥ best peer',
    `${percent(content)} vs ${percent(bestContent)}`,
    mark(!(content < bestContent)),
  ]);
  const task = taskShare(mca.memory.overall);
  const bestTask = bestPeer(workload, (metrics) => taskShare(metrics.memory.overall));
  rows.push([name, 'task text ≥ best peer', `${percent(task)} vs ${percent(bestTask)}`, mark(!(task < bestTask))]);
  const cheapest = cheapestPeer(workload);
  const cost = chargedDollars(mca);
  rows.push(
    cheapest === undefined
      ? [name, `cost (forgetting charged) ≤ ${COST_FACTOR}× cheapest peer`, 'no peer without overflows', '—']
      : [
          name,
          `cost (forgetting charged) ≤ ${COST_FACTOR}× cheapest peer without overflows`,
          `$${cost.toFixed(2)} = ${(cost / cheapest.dollars).toFixed(2)}× \`${cheapest.name}\` ($${cheapest.dollars.toFixed(2)})`,
          mark(cost <= COST_FACTOR * cheapest.dollars),
        ],
  );
  const input = mca.summary.inputTokens;
  const cached = input === 0 ? Number.NaN : mca.summary.cacheRead / input;
  rows.push([
    name,
    `summary input read from cache ≥ ${SUMMARY_CACHE_SHARE * 100}%`,
    input === 0 ? 'no summary call' : percent(cached),
    input === 0 ? '—' : mark(cached >= SUMMARY_CACHE_SHARE),
  ]);
  return rows;
}

/** The section, or nothing when no workload compacts. */
export function contextTargetsSection(replay: ReplayResult): string[] {
  const compacting = replay.workloads.filter((workload) =>
    Object.values(workload.byStrategy).some((metrics) => metrics !== undefined && metrics.compactions > 0),
  );
  if (compacting.length === 0) return [];
  return [
    '### Context engine targets (every workload where any strategy compacts)',
    POLICY_TEXT,
    table(['workload', 'target', 'this run', ''], compacting.flatMap(workloadRows)),
    'Every round that leaves the prompt goes into an archive entry by construction; the property tests ' +
      '(test/context/*.property.test.ts) check it, and that no sendable request exceeds the window, over random ' +
      'sessions. The bench does not count it separately.',
  ];
}
