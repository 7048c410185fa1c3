/**
 * Background tasks in the REPL through the built binary (issue 39): Ctrl+B moves a running Bash command to the
 * background and the turn goes on; `/tasks` lists it, `/tasks <id>` shows its output, `/tasks stop <id>` stops
 * it; nothing it started is left once mca exits.
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';
import { waitUntil } from './support/tmux.js';
import { processesMatching } from './support/processes.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: background tasks', () => {
  it('Ctrl+B backgrounds a running command; /tasks lists, shows and stops it', async () => {
    const marker = `mca-repl-bg-${process.pid}-${Date.now()}`;
    const command = `echo early-line; until [ -f go ]; do sleep 0.05; done; echo late-line; true ${marker}`;
    const { repl, term, script } = await harness.start(
      [
        { text: 'Running it.', calls: [{ name: 'Bash', input: { command } }] },
        { text: 'Moved on while it runs.' },
        {
          text: 'Starting another.',
          calls: [{ name: 'Bash', input: { command: `sleep 295; true ${marker}-left`, run_in_background: true } }],
        },
        { text: 'Left running.' },
      ],
      { args: ['--permission-mode', 'bypassPermissions'], env: { MCA_TOOL_PROTOCOL: 'native' } },
    );
    term.type('run the slow one');
    term.keys('Enter');
    await term.waitFor('Bash(echo early-line', { what: 'the running call' });
    // The command registers once it runs: press Ctrl+B until the turn goes on (a state, not a time).
    await waitUntil(() => {
      if (!term.screen().includes('Moved on while it runs.')) term.keys('C-b');
      return term.screen().includes('Moved on while it runs.');
    }, 'the turn going on after Ctrl+B');
    expect(JSON.stringify(script.agentRequests[1]?.messages?.at(-1))).toContain('moved this command to the background');

    term.type('/tasks');
    term.keys('Enter');
    await term.waitFor(/bash_1 {2}running {2}echo early-line/, { what: '/tasks list' });
    term.type('/tasks bash_1');
    term.keys('Enter');
    await term.waitFor(/bash_1 {2}running[\s\S]*early-line\n/, { what: "/tasks bash_1's output" });
    expect(processesMatching(marker, repl.project)).not.toEqual([]);
    term.type('/tasks stop bash_1');
    term.keys('Enter');
    await term.waitFor('Stopped bash_1 (stopped).', { what: '/tasks stop' });
    expect(processesMatching(marker, repl.project)).toEqual([]);

    // One left running when the person exits: gone with mca.
    term.type('start another');
    term.keys('Enter');
    await term.waitFor('Left running.', { what: 'the second background task' });
    expect(processesMatching(`${marker}-left`, repl.project)).not.toEqual([]);
    term.type('/exit');
    term.keys('Enter');
    await waitUntil(() => term.paneDead() || !term.screen().includes('Ask anything'), 'mca to exit');
    await waitUntil(() => processesMatching(marker, repl.project).length === 0, 'the background task to be gone');
    expect(processesMatching('sleep 295', repl.project)).toEqual([]);
  }, 120_000);
});
