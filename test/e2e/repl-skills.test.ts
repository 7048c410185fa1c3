/**
 * Subagents and skills in the REPL, through the built binary in tmux: the trust question lists what the project
 * would switch on, and /skills and /agents list what was loaded once it is trusted.
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const FILES = {
  '.claude/skills/release-notes/SKILL.md':
    '---\nname: release-notes\ndescription: Writes release notes in the team format\n---\nBody.\n',
  '.claude/agents/finder.md': '---\nname: finder\ndescription: Finds facts\ntools: Read, Grep\n---\nYou find.\n',
};

describe.runIf(runHere)('mca REPL in tmux: subagents and skills', () => {
  it('the trust question names them; /skills and /agents list them', async () => {
    const { url } = await harness.fake([{ text: 'ok' }]);
    const repl = await launchRepl(url, { files: FILES });
    harness.defer(() => repl.cleanup());
    const question = await repl.term.waitFor('1. Yes, proceed', { what: 'the trust question' });
    expect(question).toContain('finder.md');
    expect(question).toContain('release-notes');
    repl.term.keys('Enter');
    await repl.term.waitFor('Ask anything', { what: 'the REPL after the trust answer' });

    repl.term.type('/skills');
    repl.term.keys('Enter');
    await repl.term.waitFor(/release-notes \(project\) Writes release notes in the team format/, { what: '/skills' });

    repl.term.type('/agents');
    repl.term.keys('Enter');
    const agents = await repl.term.waitFor(/finder \(project; Read, Grep\) Finds facts/, { what: '/agents' });
    expect(agents).toMatch(/Explore \(built-in; LS, Glob, Grep, Read, Recall\)/);
    expect(agents).toMatch(/general-purpose \(built-in; all tools\)/);
  }, 120_000);
});
