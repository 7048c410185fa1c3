/**
 * A Claude Code project setup in the REPL, through the built binary in tmux: the trust question asked once per
 * project, custom commands in /help, Tab completion and their expansion (with `!` lines run after trust),
 * /memory, and a deny rule holding for the user's own `!` shell line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const FILES = {
  '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(touch:*)'] } }),
  '.mca/commands/review.md':
    '---\ndescription: Review one file\nargument-hint: <file>\nallowed-tools: Bash(echo:*)\n---\nReview $1 now. !`echo EXPANDED-$1`',
  'CLAUDE.md': 'MEMORY-MARK',
};

describe.runIf(runHere)('mca REPL in tmux: a Claude Code project setup', () => {
  it('asks about trust once, then lists, completes and runs a custom command; /memory; deny holds for !', async () => {
    const { script, url } = await harness.fake([{ text: 'Thought: ok\nAction: Finish[reviewed it]' }]);
    const first = await launchRepl(url, { files: FILES });
    harness.defer(() => first.cleanup());
    const question = await first.term.waitFor('Trust this project? [y/N]', { what: 'the trust question' });
    expect(question).toContain('Bash(npm test:*)');
    expect(question).toContain('/review runs shell commands');
    first.term.type('y');
    first.term.keys('Enter');
    await first.term.waitFor('Ask anything', { what: 'the REPL after the trust answer' });
    const store = join(first.home, 'trusted-projects.json');
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(readFileSync(store, 'utf8')).toContain(first.project);

    first.term.type('/help custom');
    first.term.keys('Enter');
    const help = await first.term.waitFor('Custom commands', { what: '/help with custom commands' });
    expect(help).toMatch(/\/review <file>\s+Review one file \(project\)/);

    first.term.type('/rev');
    // The suggestion list under the input box (not /help's list above it) shows the command: '/rev' has arrived.
    await first.term.waitFor((screen) => (screen.split('╰').at(-1) ?? '').includes('/review <file>'), {
      what: 'the suggestion list',
    });
    first.term.keys('Tab');
    await first.term.waitFor(/│ > \/review/, { what: 'Tab completing /review' });
    first.term.type(' src/a.ts');
    first.term.keys('Enter');
    await first.term.waitFor('reviewed it', { what: 'the command turn' });
    const sent = userText(script.agentRequests[0] ?? {});
    expect(sent).toContain('Review src/a.ts now. EXPANDED-src/a.ts');

    first.term.type('/memory');
    first.term.keys('Enter');
    await first.term.waitFor(/CLAUDE\.md\s+11 chars\s+\(project\)/, { what: '/memory' });
    // /memory also offers the files to open in $EDITOR; Esc closes that picker.
    await first.term.waitFor('Open a memory file in $EDITOR', { what: "/memory's picker" });
    first.term.keys('Escape');
    await first.term.waitFor((screen) => !screen.includes('Open a memory file in $EDITOR'), {
      what: 'the picker to close',
    });

    first.term.type('!touch user-made.txt');
    first.term.keys('Enter');
    await first.term.waitFor(/Permission to run Bash\(touch user-made\.txt\) was denied/, {
      what: 'the deny rule on a ! line',
    });
    expect(existsSync(join(first.project, 'user-made.txt'))).toBe(false);
    first.term.kill();

    const second = await launchRepl(url, { files: FILES, reuse: { root: first.root } });
    harness.defer(() => second.cleanup());
    const screen = await second.term.waitFor('Ask anything', { what: 'the REPL without a second question' });
    expect(screen).not.toContain('Trust this project');
  }, 120_000);
});
