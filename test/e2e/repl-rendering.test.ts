/**
 * Issue 41's rendering defects, each through the built binary in tmux (each failed on the build before the fix):
 * `!ls` typed in shell mode shows one `!`; a 300-line paste is one `[Pasted 300 lines]` whether or not the terminal
 * brackets it; text and Ctrl+U that arrive in one read clear the line; the rewind list shows a prompt in the user's
 * words, not the `<user-shell-command>` note a `!` command left on it.
 */
import { describe, expect, it } from 'vitest';
import { finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

/** The rows of the input box (between its rounded corners). */
function inputBox(screen: string): string {
  const rows = screen.split('\n');
  const top = rows.findLastIndex((row) => row.startsWith('╭'));
  const bottom = rows.findLastIndex((row) => row.startsWith('╰'));
  return rows.slice(top + 1, bottom).join('\n');
}

const LINES = Array.from({ length: 300 }, (_, index) => `line ${index + 1} of a long paste, with some words`).join(
  '\n',
);

describe.runIf(runHere)('mca REPL in tmux: rendering', () => {
  it('shell mode shows its ! once', async () => {
    const { term } = await harness.start([]);
    term.type('!ls -la');
    const screen = await term.waitFor((text) => inputBox(text).includes('ls -la'), { what: 'the typed command' });
    expect(inputBox(screen)).toMatch(/│ ! ls -la/);
    expect(inputBox(screen)).not.toMatch(/!\s*!ls/);
  }, 120_000);

  for (const bracketed of [true, false]) {
    it(`a 300-line paste is one paste (${bracketed ? 'bracketed' : 'unbracketed'})`, async () => {
      const { term, script } = await harness.start([finish('ok', 'got it')]);
      term.paste(LINES, { bracketed });
      const screen = await term.waitFor('[Pasted 300 lines]', { what: 'the paste placeholder' });
      expect(inputBox(screen)).not.toMatch(/#2|\[Pasted (?!300 )\d+ lines\]/);
      term.keys('Enter');
      await term.waitFor('got it', { what: 'the turn' });
      const sent = JSON.stringify(script.agentRequests[0] ?? {});
      expect(sent).toContain('line 1 of a long paste');
      expect(sent).toContain('line 300 of a long paste');
    }, 120_000);
  }

  it('text and Ctrl+U in one read: the line is cleared', async () => {
    const { term } = await harness.start([]);
    // One literal send: tmux writes it at once, so mca reads the text and the key together.
    term.type('first words\u0015second');
    const screen = await term.waitFor((text) => inputBox(text).includes('second'), { what: 'the typed text' });
    expect(inputBox(screen)).not.toContain('first words');
  }, 120_000);

  it('the rewind list shows a prompt in the user’s words after a ! command', async () => {
    const { term } = await harness.start([finish('ok', 'the answer')]);
    term.type('!echo hello-from-shell');
    term.keys('Enter');
    await term.waitFor('hello-from-shell', { what: 'the shell output', scope: 'all' });
    await term.waitFor('Ask anything', { what: 'the idle input box' });
    term.type('what did it print?');
    term.keys('Enter');
    await term.waitFor('the answer', { what: 'the turn' });
    term.type('/rewind');
    term.keys('Enter');
    const screen = await term.waitFor('Rewind to before a prompt', { what: 'the rewind list' });
    const list = screen.slice(screen.indexOf('Rewind to before a prompt'));
    expect(list).toContain('what did it print?');
    expect(list).not.toContain('user-shell-command');
  }, 120_000);
});
