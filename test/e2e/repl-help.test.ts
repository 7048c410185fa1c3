/**
 * Issue 41: `/help` fits a 24-row terminal, a page at a time, and its two columns never run together (a long usage
 * like `/permissions [allow <rule>]` once ran straight into its description), through the built binary in tmux.
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /help', () => {
  for (const columns of [80, 50]) {
    it(`fits 24 rows at ${columns} columns, pages, and keeps its columns apart`, async () => {
      const { term } = await harness.start([], { columns, rows: 24 });
      term.type('/help');
      term.keys('Enter');
      const first = await term.waitFor(/Page 1 of \d+/, { what: 'the first help page' });
      // The page's title is still on the screen: nothing scrolled away.
      expect(first).toMatch(/^Commands$/m);
      expect(first).toContain('/help');
      const pages = Number(/Page 1 of (\d+)/.exec(first)?.[1]);
      expect(pages).toBeGreaterThan(1);

      const seen: string[] = [first];
      for (let page = 2; page <= pages; page += 1) {
        term.type(`/help ${page}`);
        term.keys('Enter');
        seen.push(await term.waitFor(new RegExp(`Page ${page} of ${pages}`), { what: `help page ${page}` }));
      }
      const all = seen.join('\n');
      for (const usage of ['/permissions [allow <rule>]', '\\ Enter, Alt-Enter, Ctrl-J', '/exit', 'Ctrl-D']) {
        expect(all).toContain(usage);
      }
      // Every usage is followed by two spaces or ends its line: never glued to its description.
      expect(all).not.toMatch(/\/permissions \[allow <rule>\]\S/);
      expect(all).not.toMatch(/Ctrl-J\S/);
      expect(all).not.toMatch(/\/permissions \[allow <rule>\] [^ ]/);

      term.type('/help keys');
      term.keys('Enter');
      await term.waitFor(/^Keys$/m, { what: 'the keys page by name' });
    }, 120_000);
  }
});
