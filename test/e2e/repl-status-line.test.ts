/**
 * Issue 40: settings `statusLine` with Claude Code's meaning, through the built binary in tmux: the command gets the
 * session's state as JSON on stdin and its first line is shown under the input; a command that hangs never blocks
 * the REPL (its own status line stays).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

function settings(command: string): Record<string, string> {
  return { 'settings.json': JSON.stringify({ statusLine: { type: 'command', command } }) };
}

describe.runIf(runHere)('mca REPL in tmux: statusLine', () => {
  it("shows the command's first line, and the command reads Claude Code's status JSON", async () => {
    const { repl, term } = await harness.start([], {
      homeFiles: settings('cat > "$MCA_HOME/status-input.json"; printf "custom status: ok\\nsecond line\\n"'),
    });
    const screen = await term.waitFor('custom status: ok', { what: 'the custom status line' });
    expect(screen).not.toContain('second line');
    const input = JSON.parse(readFileSync(join(repl.home, 'status-input.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'Status',
      cwd: repl.project,
      model: { id: expect.any(String) as unknown },
      workspace: { current_dir: repl.project },
      cost: { total_cost_usd: 0 },
    });
    expect(typeof input.session_id).toBe('string');
  }, 120_000);

  it('a command that hangs never blocks the REPL', async () => {
    const { term } = await harness.start([], { homeFiles: settings('sleep 60') });
    term.type('/help');
    term.keys('Enter');
    // One look at the pane holds both: the help page and mca's own status line (a second capture could land on a
    // frame being redrawn).
    await term.waitFor((text) => /Page 1 of \d+/.test(text) && /ctx –/.test(text), {
      what: "/help and mca's own status line while the status command hangs",
    });
  }, 120_000);
});
