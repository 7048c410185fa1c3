/**
 * Issue 40: Ctrl+R searches the prompt history backwards, as in a shell and Claude Code (it did nothing before),
 * through the built binary in tmux: the query shows the newest match, Ctrl+R again an older one, Enter takes it
 * into the input box (not sent until Enter again), Esc leaves the input as it was.
 */
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: Ctrl+R', () => {
  it('finds an earlier prompt, an older one on Ctrl+R again, and Enter takes it into the box', async () => {
    const { term, script } = await harness.start([
      finish('ok', 'answer one'),
      finish('ok', 'answer two'),
      finish('ok', 'answer three'),
    ]);
    for (const [prompt, answer] of [
      ['deploy the staging build', 'answer one'],
      ['deploy the production build', 'answer two'],
    ] as const) {
      term.type(prompt);
      term.keys('Enter');
      await term.waitFor(answer, { what: answer });
      await term.waitFor('Ask anything', { what: 'the idle input box' });
    }
    term.keys('C-r');
    await term.waitFor('reverse search:', { what: 'the search line' });
    term.type('deploy');
    await term.waitFor('reverse search: deploy_ · deploy the production build', { what: 'the newest match' });
    term.keys('C-r');
    await term.waitFor('reverse search: deploy_ · deploy the staging build', { what: 'the older match' });
    term.keys('Enter');
    const screen = await term.waitFor((text) => !text.includes('reverse search:'), { what: 'the search closed' });
    expect(screen).toMatch(/│ > deploy the staging build/);
    expect(script.agentRequests).toHaveLength(2);
    term.keys('Enter');
    await term.waitFor('answer three', { what: 'the third turn' });
    expect(userText(script.agentRequests[2] ?? {})).toContain('deploy the staging build');

    term.keys('C-r');
    term.type('nothing like this');
    await term.waitFor('reverse search: nothing like this_ · no match', { what: 'no match' });
    term.keys('Escape');
    await term.waitFor('Ask anything', { what: 'the input as before the search' });
  }, 120_000);
});
