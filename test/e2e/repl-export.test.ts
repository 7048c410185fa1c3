/**
 * Issue 41: `/export` asks where when no path is given (nothing is written into the project unasked), and the file
 * is a clean transcript: the user's words and the answers, each tool call as one readable line with its result
 * folded, and none of mca's reminders, protocol labels or raw JSON results. Through the built binary in tmux.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { act, finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /export', () => {
  it('asks where without a path, and writes a clean transcript', async () => {
    const { repl, term } = await harness.start(
      [act('I will read it', 'Read', { path: 'notes.txt' }), finish('done', 'The notes say hello.')],
      { files: { 'notes.txt': 'hello from the notes\n' } },
    );
    term.type('what do @notes.txt say?');
    term.keys('Enter');
    await term.waitFor('The notes say hello.', { what: 'the answer' });
    const before = readdirSync(repl.project).sort();

    term.type('/export');
    term.keys('Enter');
    await term.waitFor('Export the conversation', { what: "/export's question" });
    term.keys('Escape');
    await term.waitFor('Ask anything', { what: 'the picker closed' });
    expect(readdirSync(repl.project).sort()).toEqual(before);

    term.type('/export talk.md');
    term.keys('Enter');
    await term.waitFor(/Exported the conversation to .*talk\.md/, { what: '/export talk.md' });
    const exported = readFileSync(join(repl.project, 'talk.md'), 'utf8');
    expect(exported).toContain('## User\n\nwhat do @notes.txt say?');
    expect(exported).toContain('## Assistant');
    expect(exported).toContain('The notes say hello.');
    expect(exported).toMatch(/^- Read notes\.txt$/m);
    expect(exported).toContain('<details><summary>result</summary>');
    expect(exported).toContain('hello from the notes');
    expect(exported).not.toContain('<system-reminder>');
    expect(exported).not.toMatch(/^(Thought|Action):/m);
    expect(exported).not.toContain('"status"');
    expect(existsSync(join(repl.project, 'talk.md'))).toBe(true);
  }, 120_000);
});
