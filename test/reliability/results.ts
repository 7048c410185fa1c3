/**
 * What the reliability suite measured, written as JSON per test file (results/<suite>.json) so RELIABILITY.md is
 * rendered from real runs (report.ts), never typed by hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESULTS_DIR = join('test', 'reliability', 'results');

export interface ResultRow {
  /** Short group name, e.g. "API fault", "crash", "path", "secret", "property". */
  group: string;
  /** The fault or bad input tried. */
  fault: string;
  /** What mca does: exit code, the one line users see, or the tool's error code. */
  behaviour: string;
  runs: number;
  /** Runs after which every check held: session intact, nothing lost, output bounded. */
  intact: number;
}

export interface SuiteResults {
  suite: string;
  finishedAt: string;
  /** Extra figures a suite reports (seed, kill count, property cases). */
  facts: Record<string, string | number>;
  rows: ResultRow[];
}

export class ResultLog {
  private readonly rows: ResultRow[] = [];
  private readonly facts: Record<string, string | number> = {};

  constructor(private readonly suite: string) {}

  add(row: ResultRow): void {
    this.rows.push(row);
  }

  /**
   * Runs one case and adds its row whatever happens: `body` returns the behaviour line; a throw (a failed
   * expectation) is recorded as 0 intact runs and rethrown.
   */
  async track(group: string, fault: string, body: () => Promise<string>, runs = 1): Promise<void> {
    let behaviour = 'the check failed';
    let intact = 0;
    try {
      behaviour = await body();
      intact = runs;
    } finally {
      this.add({ group, fault, behaviour, runs, intact });
    }
  }

  fact(name: string, value: string | number): void {
    this.facts[name] = value;
  }

  /** Rows keep the order the tests were declared in, whatever order concurrent tests finished in. */
  write(order?: readonly string[]): void {
    const rank = (fault: string): number => {
      const at = order?.indexOf(fault) ?? -1;
      return at < 0 ? Number.MAX_SAFE_INTEGER : at;
    };
    const rows = [...this.rows].sort((a, b) => rank(a.fault) - rank(b.fault));
    const results: SuiteResults = {
      suite: this.suite,
      finishedAt: new Date().toISOString(),
      facts: this.facts,
      rows,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `${this.suite}.json`), `${JSON.stringify(results, null, 2)}\n`);
  }
}
