/**
 * Plans and todos as people read them, through the built binary in tmux: the plan-approval dialog shows the plan's
 * Markdown rendered (no `#`, bullets, task boxes), the approved plan stays in the transcript, and a TodoWrite shows
 * the list inline as a checklist each time it changes.
 */
import { describe, expect, it } from 'vitest';
import { act } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const PLAN = '# Fix the parser\n- [ ] add a **failing** test\n- [x] read `parse.ts`\n* keep the API';

describe.runIf(runHere)('mca REPL in tmux: plans and todos', () => {
  it('renders the plan in the dialog, keeps it after approval, and shows todos as a checklist', async () => {
    const { term } = await harness.start(
      [
        act('Present the plan.', 'ExitPlanMode', { plan: PLAN }),
        act('Track it.', 'TodoWrite', {
          todos: [
            { content: 'write the failing test', status: 'in_progress' },
            { content: 'fix parse.ts', status: 'pending' },
          ],
        }),
        act('Progress.', 'TodoWrite', {
          todos: [
            { content: 'write the failing test', status: 'completed' },
            { content: 'fix parse.ts', status: 'in_progress' },
          ],
        }),
        { text: 'Thought: done\nAction: Finish[all planned]' },
      ],
      { args: ['--permission-mode', 'plan'], rows: 50 },
    );
    term.type('plan the fix');
    term.keys('Enter');
    const dialog = await term.waitFor('Approve this plan?', { what: 'the plan dialog' });
    expect(dialog).toContain('Fix the parser');
    expect(dialog).not.toContain('# Fix the parser');
    expect(dialog).toContain('☐ add a failing test');
    expect(dialog).toContain('☑ read parse.ts');
    expect(dialog).toContain('• keep the API');

    term.type('2');
    const screen = await term.waitFor('all planned', { what: 'the end of the turn' });
    expect(screen).toContain('Plan (approved)');
    expect(screen).toMatch(/Todos \[0\/2\][\s\S]*▶ write the failing test[\s\S]*☐ fix parse\.ts/);
    expect(screen).toMatch(/Todos \[1\/2\][\s\S]*☑ write the failing test[\s\S]*▶ fix parse\.ts/);
  }, 120_000);
});
