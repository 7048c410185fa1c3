/**
 * Plan mode in the REPL through the built binary in tmux: Shift+Tab cycles default → accept edits → plan with the
 * mode in the status line; in plan mode a Write is refused and the model is told why; the plan is shown through
 * ExitPlanMode and, once approved with "auto-accept edits", the same Write runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { act } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: plan mode', () => {
  it('blocks Write until the plan is approved, then runs it in accept-edits mode', async () => {
    const write = { path: 'out.txt', content: 'planned\n' };
    const { term, script, repl } = await harness.start([
      act('Try to write first.', 'Write', write),
      act('Present the plan.', 'ExitPlanMode', { plan: '1. Create out.txt with one line\n2. Done' }),
      act('Now write it.', 'Write', write),
      { text: 'Thought: done\nAction: Finish[wrote out.txt]' },
    ]);
    const start = term.screen();
    expect(start).not.toContain('plan mode');
    term.keys('BTab');
    await term.waitFor('⏵⏵ accept edits', { what: 'accept edits after one Shift+Tab' });
    term.keys('BTab');
    await term.waitFor('⏸ plan mode', { what: 'plan mode after two Shift+Tabs' });

    term.type('add out.txt');
    term.keys('Enter');
    const prompt = await term.waitFor('Approve this plan?', { what: 'the plan prompt' });
    expect(prompt).toContain('Create out.txt with one line');
    expect(prompt).toContain('1. Yes, and auto-accept edits');
    expect(prompt).toContain('3. No, keep planning');
    expect(existsSync(join(repl.project, 'out.txt'))).toBe(false);
    expect(userText(script.agentRequests[0] ?? {})).toContain('Plan mode is active');
    const refused = userText(script.agentRequests[1] ?? {});
    expect(refused).toContain('PERMISSION_DENIED');
    expect(refused).toContain('plan mode is on: only read-only tools run');

    term.type('1');
    await term.waitFor('wrote out.txt', { what: 'the end of the turn' });
    expect(readFileSync(join(repl.project, 'out.txt'), 'utf8')).toBe('planned\n');
    expect(userText(script.agentRequests[2] ?? {})).toContain('The user approved the plan');
    await term.waitFor('⏵⏵ accept edits', { what: 'the mode after approval' });
  }, 120_000);

  it('shows bypassPermissions unmistakably in the status line', async () => {
    const { term } = await harness.start([], { args: ['--permission-mode', 'bypassPermissions'] });
    await term.waitFor('⚠ BYPASS PERMISSIONS', { what: 'the bypass badge' });
  }, 60_000);
});
