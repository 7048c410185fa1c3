/**
 * Issue 28 in the REPL through the built binary in tmux: `/rewind` lists the session's prompts newest first with
 * the files each changed; choosing one shows the choices and a preview of the files that change; "code and
 * conversation" restores the files (a Write and a Bash-created file), cuts the conversation (the next request no
 * longer carries the later prompt) and puts the prompt back in the input box. Esc Esc on an empty prompt opens
 * the same list.
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

describe.runIf(runHere)('mca REPL in tmux: /rewind', () => {
  it('restores code and conversation to before a prompt and puts the prompt back in the input box', async () => {
    const { term, script, repl } = await harness.start(
      [
        act('Make c.', 'Write', { path: 'c.txt', content: 'two\n' }),
        { text: 'Thought: done\nAction: Finish[first done]' },
        act('Make b.', 'Bash', { command: 'echo three > b.txt' }),
        { text: 'Thought: done\nAction: Finish[second done]' },
        { text: 'Thought: again\nAction: Finish[redone]' },
      ],
      { args: ['--permission-mode', 'bypassPermissions'], files: { 'a.txt': 'one\n' } },
    );
    term.type('first change');
    term.keys('Enter');
    await term.waitFor('first done', { what: 'the first turn' });
    term.type('second change');
    term.keys('Enter');
    await term.waitFor('second done', { what: 'the second turn' });
    expect(readFileSync(join(repl.project, 'b.txt'), 'utf8')).toBe('three\n');
    expect(readFileSync(join(repl.project, 'c.txt'), 'utf8')).toBe('two\n');

    term.type('/rewind');
    term.keys('Enter');
    const screen = await term.waitFor(/Rewind to before a prompt[\s\S]*first change/, { what: 'the rewind list' });
    const list = screen.slice(screen.indexOf('Rewind to before a prompt'));
    // Newest first, each with the number of files it changed.
    expect(list.indexOf('second change')).toBeLessThan(list.indexOf('first change'));
    expect(list).toMatch(/1 file · second change/);
    expect(list).toMatch(/1 file · first change/);
    term.keys('Down');
    term.keys('Enter');
    const choose = await term.waitFor('2 files will change', { what: 'the preview' });
    expect(choose).toContain('1. Restore code and conversation');
    expect(choose).toContain('2. Restore conversation only');
    expect(choose).toContain('3. Restore code only');
    expect(choose).toMatch(/delete {2}c\.txt/);
    expect(choose).toMatch(/delete {2}b\.txt/);
    term.keys('Enter');
    await term.waitFor('Rewound to', { what: 'the rewind notice' });
    expect(readFileSync(join(repl.project, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(repl.project, 'c.txt'))).toBe(false);
    expect(existsSync(join(repl.project, 'b.txt'))).toBe(false);
    // The prompt is back in the input box; sending it again starts from before it.
    await term.waitFor(/❯ first change|> first change|first change\s*$/m, { what: 'the prompt back in the input box' });
    term.keys('Enter');
    await term.waitFor('redone', { what: 'the turn after the rewind' });
    const request = userText(script.agentRequests.at(-1) ?? {});
    expect(request).toContain('first change');
    expect(request).not.toContain('second change');
    expect(request).not.toContain('first done');

    // Esc Esc on an empty prompt of an idle REPL opens the same list; Esc closes it. One send-keys writes both
    // presses at once, so they usually arrive in one read, as they can through tmux or ssh.
    await term.waitFor('Ask anything', { what: 'the idle input box' });
    term.keys('Escape', 'Escape');
    await term.waitFor('Rewind to before a prompt', { what: 'the list after Esc Esc' });
    term.keys('Escape');
    await term.waitFor('Ask anything', { what: 'the input box again' });
  }, 120_000);
});
