/**
 * The permission prompt and untrusted text in the REPL, through the built binary in tmux: Esc ends the turn with
 * no further model call, a long command is shown whole (scrolling, hidden lines counted), and escape sequences in
 * a command, in tool output and in the model's answer are shown visibly: the window title and the clipboard
 * (tmux's paste buffers, with set-clipboard on) stay untouched.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { act } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const ESC = '\x1b';
const BEL = '\x07';
/** Window title (OSC 2), clipboard write (OSC 52 of "pwned"), concealed text (SGR 8). */
const HOSTILE = `${ESC}]2;PWNED-TITLE${BEL}${ESC}]52;c;cHduZWQ=${BEL}${ESC}[8mconcealed${ESC}[0m`;

describe.runIf(runHere)('mca REPL in tmux: permission prompt and untrusted text', () => {
  it('Esc at a permission prompt ends the turn: no further model call, the model is told on the next turn', async () => {
    const { term, script, repl } = await harness.start([
      act('Create the marker.', 'Bash', { command: 'touch marker-file' }),
      { text: 'Thought: x\nAction: Finish[this reply must never be requested in the declined turn]' },
    ]);
    term.type('make the marker');
    term.keys('Enter');
    await term.waitFor('Allow Bash(touch marker-file)?', { what: 'the permission prompt' });
    const waiting = await term.waitFor(/⏸ Waiting for your answer…/, { what: 'the paused spinner' });
    expect(waiting).not.toContain('Ctrl-C to interrupt)');
    term.keys('Escape');
    const declined = await term.waitFor(/Declined · the turn stopped/, { what: 'the decline notice' });
    expect(declined).toContain('Ask anything');
    expect(declined).not.toContain('Allow Bash');
    expect(script.agentRequests).toHaveLength(1);
    expect(existsSync(join(repl.project, 'marker-file'))).toBe(false);
    term.type('do it differently');
    term.keys('Enter');
    await term.waitFor('this reply must never be requested', { what: 'the next turn' });
    const next = userText(script.agentRequests[1] ?? {});
    expect(next).toContain('The user declined Bash(touch marker-file) and stopped the turn');
    expect(next).toContain('do it differently');
  }, 120_000);

  it('shows a 30-line command whole: hidden lines are counted and PgDn reaches the last; escapes are visible', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `echo line-${index + 1}`);
    lines[8] = `echo ${ESC}[8mhidden-ninth${ESC}[0m`;
    const { term } = await harness.start([act('Run it.', 'Bash', { command: lines.join('\n') })], {
      rows: 30,
      clipboard: true,
    });
    term.type('run the script');
    term.keys('Enter');
    const prompt = await term.waitFor(/more lines below/, { what: 'the long command prompt' });
    expect(prompt).toContain('echo line-1');
    expect(prompt).toContain('echo ␛[8mhidden-ninth␛[0m');
    const below = /↓ (\d+) more lines below/.exec(prompt);
    const shown = prompt.split('\n').filter((line) => /^│ echo /.test(line)).length;
    expect(Number(below?.[1])).toBe(30 - shown);
    term.keys('NPage');
    term.keys('NPage');
    term.keys('NPage');
    const end = await term.waitFor('echo line-30', { what: 'the last line after PgDn' });
    expect(end).toMatch(/↑ \d+ more lines above/);
    expect(end).not.toContain('more lines below');
    term.keys('Escape');
    await term.waitFor('Declined');
  }, 120_000);

  it('shows escape sequences in tool output and in the answer visibly; the title and clipboard stay untouched', async () => {
    const titleBefore = '';
    const { term } = await harness.start(
      [
        act('Print it.', 'Bash', { command: `printf '${HOSTILE.split(ESC).join('\\033').split(BEL).join('\\007')}'` }),
        { text: `Thought: done\nAction: Finish[Answer with ${HOSTILE} inside.]` },
      ],
      { args: ['--permission-mode', 'bypassPermissions'], clipboard: true },
    );
    term.type('print the file');
    term.keys('Enter');
    const screen = await term.waitFor(/Answer with .* inside\./, { what: 'the answer' });
    // printf turned \033 into real escapes: the tool output carries them, and the pane shows them as text.
    expect(screen).toContain('␛]2;PWNED-TITLE␇␛]52;c;cHduZWQ=␇␛[8mconcealed␛[0m');
    expect(screen.split('␛]2;PWNED-TITLE').length - 1, screen).toBe(2);
    expect(term.paneTitle()).not.toContain('PWNED');
    expect(term.buffers()).toBe(titleBefore);
  }, 120_000);
});
