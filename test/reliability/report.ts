/**
 * Renders RELIABILITY.md from the reliability suite's own output (test/reliability/results/*.json):
 *   npx vitest run test/reliability && npx tsx test/reliability/report.ts
 * Nothing in the table is typed by hand; run the suite, then this script, then commit both.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, type ResultRow, type SuiteResults } from './results.js';

const SUITES: ReadonlyArray<{ suite: string; title: string; about: string }> = [
  {
    suite: 'faults',
    title: 'API faults and misbehaving models',
    about:
      'Real `mca -p` binary against the loopback fake Messages API (test/reliability/faults.test.ts). After each run: ' +
      'exit code and the one line users see, the session file parses with no warnings, keeps its invariants, every ' +
      'round is closed, and the same session then continues.',
  },
  {
    suite: 'crash',
    title: 'Crash safety (kill -9)',
    about:
      'A long scripted session (Read, Write of a 40 KB file, Bash, compactions every fourth task) through the real ' +
      'binary, SIGKILLed at seeded random moments, two chains side by side; each next run is `mca -c` ' +
      '(test/reliability/crash.test.ts).',
  },
  {
    suite: 'paths',
    title: 'Input and path safety',
    about:
      'The real tools against hostile paths and inputs; the file outside the project is checked after every case ' +
      '(test/reliability/paths.test.ts).',
  },
  {
    suite: 'secrets',
    title: 'Secrets',
    about:
      'The API key is searched for in stdout, stderr and every file under MCA_HOME after each run ' +
      '(test/reliability/secrets.test.ts).',
  },
  {
    suite: 'property',
    title: 'Property test: random histories × random compactions',
    about:
      'fast-check over the agent compaction step with a real session file; cases = MCA_FUZZ_RUNS (200 in `npm test`, ' +
      '10,000 in `npm run test:fuzz`) (test/reliability/session-history.property.test.ts).',
  },
];

function cell(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters (a model's garbage) must not reach the file
  return text.replace(/\|/g, '\\|').replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

function table(rows: readonly ResultRow[]): string[] {
  const lines = [
    '| Fault or bad input | What mca does | Runs | Runs with nothing lost |',
    '| --- | --- | ---: | ---: |',
  ];
  for (const row of rows) {
    lines.push(`| ${cell(row.fault)} | ${cell(row.behaviour)} | ${row.runs} | ${row.intact} |`);
  }
  return lines;
}

export function render(results: readonly SuiteResults[]): string {
  const bySuite = new Map(results.map((result) => [result.suite, result]));
  const all = results.flatMap((result) => result.rows);
  const runs = all.reduce((sum, row) => sum + row.runs, 0);
  const intact = all.reduce((sum, row) => sum + row.intact, 0);
  const latest =
    results
      .map((result) => result.finishedAt)
      .sort()
      .at(-1) ?? 'never';
  const out: string[] = [
    '# Reliability',
    '',
    'Every fault and bad input the reliability suite (`test/reliability/`) tries, what mca does about it, and how many',
    "runs ended with nothing lost. This file is generated from the suite's own output: `npm test` (or",
    '`npx vitest run test/reliability`) writes `test/reliability/results/*.json`, then',
    '`npx tsx test/reliability/report.ts` renders this file. Do not edit it by hand.',
    '',
    `Last run finished ${latest}: ${all.length} faults and inputs, ${runs} runs, ${intact} with nothing lost.`,
    '',
    '"Nothing lost" means every check of the row held: the session file loads without warnings and keeps its',
    'invariants, every round that had closed is still there (or archived into a summary, or dropped with the',
    'fallback line shown), user files are whole, nothing outside the project changed, output stayed bounded, and',
    'the API key appeared nowhere.',
  ];
  for (const { suite, title, about } of SUITES) {
    const result = bySuite.get(suite);
    out.push('', `## ${title}`, '', about, '');
    if (!result) {
      out.push('_No results: this part of the suite did not run._');
      continue;
    }
    out.push(...table(result.rows));
    const facts = Object.entries(result.facts);
    if (facts.length > 0) {
      out.push('');
      for (const [name, value] of facts) out.push(`- ${name}: ${value}`);
    }
  }
  return `${out.join('\n')}\n`;
}

function loadResults(): SuiteResults[] {
  if (!existsSync(RESULTS_DIR)) return [];
  return readdirSync(RESULTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(RESULTS_DIR, name), 'utf8')) as SuiteResults);
}

if (process.argv[1]?.endsWith('report.ts')) {
  const results = loadResults();
  if (results.length === 0) {
    process.stderr.write(`no results in ${RESULTS_DIR}; run: npx vitest run test/reliability\n`);
    process.exit(1);
  }
  writeFileSync('RELIABILITY.md', render(results));
  process.stdout.write(`RELIABILITY.md written from ${results.length} result file(s)\n`);
}
