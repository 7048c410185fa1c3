/**
 * Concurrent tool calls in the REPL (issue 22), through the built binary in tmux against the loopback fake API:
 * two Reads of one native reply run side by side and are shown as two lines, each with its own input and result
 * (the transcript resolves each call by its id, not by "the one running tool").
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { saveScreen, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const FILES = {
  'one.txt': 'only line\n',
  'three.txt': 'first\nsecond\nthird\n',
};

describe.runIf(runHere)('mca REPL in tmux: concurrent calls', () => {
  it('shows two concurrent Reads of one native reply as two lines, each with its own result', async () => {
    const { term, script } = await harness.start(
      [
        {
          text: 'Reading both files.',
          calls: [
            { id: 'toolu_read_one', name: 'Read', input: { path: 'one.txt' } },
            { id: 'toolu_read_three', name: 'Read', input: { path: 'three.txt' } },
          ],
        },
        { text: 'Read them both: one line and three lines.' },
      ],
      { env: { MCA_TOOL_PROTOCOL: 'native' }, files: FILES },
    );
    term.type('read both files');
    term.keys('Enter');
    const done = await term.waitFor('one line and three lines.', { what: 'the answer after both reads' });
    await saveScreen('concurrent-reads', done);
    const lines = done.split('\n');
    const one = lines.findIndex((line) => line.includes('Read(one.txt)'));
    const three = lines.findIndex((line) => line.includes('Read(three.txt)'));
    expect(one).toBeGreaterThanOrEqual(0);
    expect(three).toBeGreaterThan(one);
    // Each call's line is followed by its own result: 1 line for one.txt, 3 lines for three.txt.
    expect(lines.slice(one + 1, three).join('\n')).toMatch(/\b1 line\b/);
    expect(lines.slice(three + 1).join('\n')).toMatch(/\b3 lines\b/);
    expect(done.split('Read(one.txt)').length - 1).toBe(1);
    expect(done.split('Read(three.txt)').length - 1).toBe(1);
    expect(script.agentRequests).toHaveLength(2);
  }, 120_000);
});
