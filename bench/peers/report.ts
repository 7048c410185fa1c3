/** The bench's table (markdown): one row per program, and mca's bill against Claude Code's and the cheapest's. */
import { PRICED_MODEL, replayPrice } from '../replay/pricing.js';
import type { ProgramBill } from './account.js';

export interface SummaryRow {
  program: string;
  version: string;
  api?: string;
  stepsPlayed: number;
  steps: number;
  testsPassAtEnd: boolean;
  filesDiffering: string[];
  problem?: string;
  bill: ProgramBill;
}

const k = (tokens: number): string => `${(tokens / 1000).toFixed(1)}k`;
const usd = (dollars: number): string => `$${dollars.toFixed(3)}`;
const pct = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(0)}%`);

export function renderTable(rows: readonly SummaryRow[]): string {
  const header = [
    '| program | version | API | steps played | requests (main + side) | first request | input tokens | cache read | cache written | uncached | output tokens | prefix identical to previous | bill | bill, same cache rule |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const lines = rows.map(({ program, version, api, stepsPlayed, steps, bill, testsPassAtEnd, problem }) => {
    const played = `${stepsPlayed}/${steps}${testsPassAtEnd ? '' : ' (tests fail at end)'}${problem && stepsPlayed < steps ? ' incomplete' : ''}`;
    return `| ${program} | ${version} | ${api ?? ''} | ${played} | ${bill.requests} (${bill.agentRequests} + ${bill.sideRequests}) | ${k(bill.firstRequestTokens)} | ${k(bill.inputTokens)} | ${k(bill.cacheRead)} | ${k(bill.cacheWritten)} | ${k(bill.uncached)} | ${k(bill.outputTokens)} | ${pct(bill.prefixBytes, bill.promptBytes)} (${(bill.prefixBytes / 1e6).toFixed(2)} of ${(bill.promptBytes / 1e6).toFixed(2)} MB) | ${usd(bill.dollars)} | ${usd(bill.sameRuleDollars)} |`;
  });
  const complete = rows.filter((row) => row.problem === undefined);
  const mca = complete.find((row) => row.program === 'mca');
  const claude = complete.find((row) => row.program === 'Claude Code');
  const notes: string[] = [];
  if (mca && claude) {
    notes.push(
      `mca / Claude Code: ${(mca.bill.dollars / claude.bill.dollars).toFixed(2)}x (target at most 0.75x, goal 0.5x)`,
    );
  }
  const others = complete.filter((row) => row.program !== 'mca');
  const cheapest = others.reduce<SummaryRow | undefined>(
    (best, row) => (best === undefined || row.bill.dollars < best.bill.dollars ? row : best),
    undefined,
  );
  if (mca && cheapest) {
    notes.push(
      `mca / cheapest other program (${cheapest.program}): ${(mca.bill.dollars / cheapest.bill.dollars).toFixed(2)}x (target at most 1.00x)`,
    );
  }
  for (const row of rows.filter((r) => r.problem !== undefined)) notes.push(`${row.program}: ${row.problem}`);
  const price = replayPrice();
  const legend = [
    `Tokens: floor(chars / 3) of each request's tools, system text and messages as JSON. Prices for every program: ${PRICED_MODEL}, $${price.input} input, $${price.output} output, $${price.cacheWrite} cache write, $${price.cacheRead} cache read per million tokens.`,
    "bill: each API's own cache rule (Anthropic: cache_control breakpoints, writes at 1.25x; OpenAI and Gemini: implicit, the longest prefix identical to an earlier request is read, no write premium). bill, same cache rule: the implicit rule for every program.",
    "prefix identical to previous: share of all prompt bytes equal to the previous request's prompt prefix. first request: the first main-loop request. side: requests without the program's tools (titles, checks).",
  ];
  return [...header, ...lines, '', ...notes.map((note) => `- ${note}`), '', ...legend].join('\n');
}
