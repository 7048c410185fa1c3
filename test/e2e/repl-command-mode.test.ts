/**
 * The permission mode has one copy (the session driver's): after Shift+Tab into plan mode, a custom command's
 * `!` line is judged under plan mode, not under the mode mca started in. Through the built binary in tmux.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

/** A user command (no trust needed) whose `!` line an allowed-tools rule allows in the default mode. */
const PROBE = '---\ndescription: Touch a file\nallowed-tools: Bash(touch:*)\n---\nProbe: !`touch made.txt`';

describe.runIf(runHere)('mca REPL in tmux: a custom command follows the mode chosen with Shift+Tab', () => {
  it("judges a command's ! line under plan mode after Shift+Tab, not under the start-up mode", async () => {
    const { script, repl, term } = await harness.start([{ text: 'Thought: ok\nAction: Finish[planned only]' }], {
      homeFiles: { 'commands/probe.md': PROBE },
    });
    term.keys('BTab');
    await term.waitFor('⏵⏵ accept edits', { what: 'accept edits after one Shift+Tab' });
    term.keys('BTab');
    await term.waitFor('⏸ plan mode', { what: 'plan mode after two Shift+Tabs' });

    term.type('/probe');
    term.keys('Enter');
    await term.waitFor('planned only', { what: 'the command turn' });
    const sent = userText(script.agentRequests[0] ?? {});
    expect(sent).toMatch(/Probe: \[!`touch made\.txt` not run: .*plan mode is on/);
    expect(sent).toContain('Plan mode is active');
    expect(existsSync(join(repl.project, 'made.txt'))).toBe(false);
  }, 120_000);
});
