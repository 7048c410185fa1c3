/** The start-up part of BENCHMARKS.md: its targets (issue 17) and its tables. */
import { formatMs, median, ratio } from './lib/stats.js';
import { table } from './report-tables.js';
import type { StartupResult } from './startup-bench.js';

export interface StartupTargetRow {
  target: string;
  figure: string;
  met: boolean;
}

/** Package sizes in MB of 10⁶ bytes, as npm prints them. */
function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

function mib(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(1)} MB` : 'n/a';
}

function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

export function startupTargetRows(startup: StartupResult): StartupTargetRow[] {
  const { script, oneShot, multiStep } = startup;
  const oneShotRatio = oneShot.wallMs / script.wallMs;
  const firstRatio = oneShot.firstRequestMs / script.firstRequestMs;
  const versionRatio = startup.versionMs / startup.nodeMs;
  const peakRss = Math.max(oneShot.peakRssMb, multiStep.peakRssMb);
  return [
    {
      target: '`mca -p` one-shot wall ≤ 3× the bare `node:http` request script',
      figure: `${times(oneShotRatio)} (${formatMs(oneShot.wallMs, 0)} vs ${formatMs(script.wallMs, 0)})`,
      met: oneShotRatio <= 3,
    },
    {
      target: '`mca -p` spawn → first request ≤ 2.5× the script’s',
      figure: `${times(firstRatio)} (${formatMs(oneShot.firstRequestMs, 0)} vs ${formatMs(script.firstRequestMs, 0)})`,
      met: firstRatio <= 2.5,
    },
    {
      target: `per-step overhead ≤ 5 ms (mean over the ${startup.toolSteps} tool steps: answer finished → next request)`,
      figure: formatMs(startup.perStepMs, 1),
      met: startup.perStepMs <= 5,
    },
    {
      target: 'peak RSS ≤ 70 MB (one-shot and 8-step `-p`)',
      figure: `${mib(peakRss)} (one-shot ${mib(oneShot.peakRssMb)})`,
      met: peakRss <= 70,
    },
    {
      target: '`mca --version` ≤ 1.3× `node -e 0`',
      figure: `${times(versionRatio)}`,
      met: versionRatio <= 1.3,
    },
    {
      target: 'package < 10 MB unpacked',
      figure: `${megabytes(startup.package.unpackedBytes)} (${startup.package.files} files)`,
      met: startup.package.unpackedBytes < 10e6,
    },
  ];
}

export function startupSection(startup: StartupResult): string[] {
  const { script, oneShot, multiStep } = startup;
  const steps = startup.toolSteps + 1;
  const commands = table(
    [
      'command',
      `wall (median of ${startup.runs})`,
      'vs baseline',
      'spawn → first request',
      `peak RSS (${startup.rssMethod})`,
    ],
    [
      ['`node -e 0` (baseline of `--version`, `--help`)', formatMs(startup.nodeMs, 1), '1.00×', '—', '—'],
      ['`mca --version`', formatMs(startup.versionMs, 1), ratio(startup.versionMs, startup.nodeMs), '—', '—'],
      ['`mca --help`', formatMs(startup.helpMs, 1), ratio(startup.helpMs, startup.nodeMs), '—', '—'],
      [
        'bare `node:http` request script (baseline of `-p`)',
        formatMs(script.wallMs, 1),
        '1.00×',
        formatMs(script.firstRequestMs, 1),
        mib(script.peakRssMb),
      ],
      [
        '`mca -p "Say ok."` (one model call)',
        formatMs(oneShot.wallMs, 1),
        ratio(oneShot.wallMs, script.wallMs),
        `${formatMs(oneShot.firstRequestMs, 1)} (${ratio(oneShot.firstRequestMs, script.firstRequestMs)})`,
        mib(oneShot.peakRssMb),
      ],
      [
        `\`mca -p\`, ${steps} steps (${startup.toolSteps} read-only tool calls, then the answer)`,
        formatMs(multiStep.wallMs, 1),
        ratio(multiStep.wallMs, script.wallMs),
        formatMs(multiStep.firstRequestMs, 1),
        mib(multiStep.peakRssMb),
      ],
    ],
  );
  const gaps = table(
    [`tool step of the ${steps}-step task`, 'answer finished → next request (mca’s own time)'],
    [
      ...startup.stepGaps.map((gap, step) => [`${step + 1}. ${gap.tool}`, formatMs(gap.ms, 2)]),
      ['**mean: per-step overhead**', formatMs(startup.perStepMs, 2)],
      ['median of the steps', formatMs(median(startup.stepGaps.map((gap) => gap.ms)), 2)],
    ],
  );
  const runs = table(
    ['run', 'wall', 'fake server’s own time', 'wall − server', 'last answer → exit'],
    [
      [
        'one-shot (1 model call)',
        formatMs(oneShot.wallMs, 1),
        formatMs(oneShot.serverMs, 1),
        formatMs(oneShot.netMs, 1),
        formatMs(oneShot.exitMs, 1),
      ],
      [
        `${steps} steps (${steps} model calls)`,
        formatMs(multiStep.wallMs, 1),
        formatMs(multiStep.serverMs, 1),
        formatMs(multiStep.netMs, 1),
        formatMs(multiStep.exitMs, 1),
      ],
      [
        `cross-check: (${steps}-step − one-shot) / ${startup.toolSteps}`,
        '',
        '',
        formatMs(startup.perStepByDifferenceMs, 2),
        '',
      ],
      [
        `per step all in (${steps}-step / ${steps}, start-up included)`,
        '',
        '',
        formatMs(startup.perStepAllInMs, 1),
        '',
      ],
    ],
  );
  const size = table(
    ['package (`npm pack`)', 'figure'],
    [
      ['packed (.tgz)', megabytes(startup.package.packedBytes)],
      ['unpacked', megabytes(startup.package.unpackedBytes)],
      ['files', String(startup.package.files)],
      ['runtime dependencies (its package.json)', String(startup.package.dependencies)],
      ['the runs above', 'from the extracted tarball, no node_modules'],
    ],
  );
  return [commands, '### Per step', gaps, runs, '### Package', size];
}
