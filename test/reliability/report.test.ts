/** RELIABILITY.md is rendered from result files only: every row and figure comes from them. */
import { describe, expect, it } from 'vitest';
import { render } from './report.js';
import type { SuiteResults } from './results.js';

const faults: SuiteResults = {
  suite: 'faults',
  finishedAt: '2026-01-02T03:04:05.000Z',
  facts: {},
  rows: [{ group: 'API fault', fault: 'HTTP 500 | twice', behaviour: 'exit 1: mca: boom', runs: 3, intact: 2 }],
};
const crash: SuiteResults = {
  suite: 'crash',
  finishedAt: '2026-01-01T00:00:00.000Z',
  facts: { seed: 42, kills: 52 },
  rows: [{ group: 'crash', fault: 'kill -9', behaviour: 'loads', runs: 52, intact: 52 }],
};

describe('RELIABILITY.md renderer', () => {
  it('renders each row, the totals, the newest finish time and the facts', () => {
    const text = render([faults, crash]);
    expect(text).toContain('| HTTP 500 \\| twice | exit 1: mca: boom | 3 | 2 |');
    expect(text).toContain('| kill -9 | loads | 52 | 52 |');
    expect(text).toContain(
      'Last run finished 2026-01-02T03:04:05.000Z: 2 faults and inputs, 55 runs, 54 with nothing lost.',
    );
    expect(text).toContain('- seed: 42');
  });

  it('says so when a part of the suite has no results', () => {
    expect(render([faults])).toContain('_No results: this part of the suite did not run._');
  });

  it('sums attempts and held per walking-tool class from the walks suites', () => {
    const walks: SuiteResults = {
      suite: 'walks',
      finishedAt: '2026-01-01T00:00:00.000Z',
      facts: {},
      rows: [
        { group: 'walk escapes the root', fault: 'a', behaviour: 'refused', runs: 1, intact: 1 },
        { group: 'walk escapes the root', fault: 'b', behaviour: 'leaked', runs: 1, intact: 0 },
        { group: 'hangs that ignore Ctrl-C', fault: 'c', behaviour: 'TIMEOUT', runs: 1, intact: 1 },
      ],
    };
    const long: SuiteResults = { ...walks, suite: 'walks-long', rows: [{ ...walks.rows[2]!, fault: 'd' }] };
    const lines = render([walks, long]).split('\n');
    expect(lines.find((line) => line.startsWith('| walk escapes the root |'))).toMatch(/\| 2 \| 1 \| [^|]+\|$/);
    expect(lines.find((line) => line.startsWith('| hangs that ignore Ctrl-C |'))).toMatch(/\| 2 \| 2 \| [^|]+\|$/);
    expect(lines.find((line) => line.startsWith('| crashes on big honest input |'))).toMatch(/\| 0 \| 0 \| [^|]+\|$/);
  });
});
