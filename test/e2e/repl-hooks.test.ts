/**
 * Hooks in the REPL, through the built binary in tmux: the trust question names the project's hook commands, a
 * trusted project's hook runs on a prompt (its output reaches the model), and /hooks lists each hook with its
 * source file and last outcome.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const SETTINGS = {
  hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo PROJECT-HOOK-CONTEXT' }] }] },
};

describe.runIf(runHere)('mca REPL in tmux: hooks', () => {
  it('names the hook in the trust question, runs it once trusted, and lists it in /hooks', async () => {
    const { script, url } = await harness.fake([{ text: 'Thought: ok\nAction: Finish[hooked answer]' }]);
    const repl = await launchRepl(url, { files: { '.claude/settings.json': JSON.stringify(SETTINGS) }, columns: 200 });
    harness.defer(() => repl.cleanup());
    const question = await repl.term.waitFor('1. Yes, proceed', { what: 'the trust question' });
    expect(question).toContain('hook UserPromptSubmit: echo PROJECT-HOOK-CONTEXT');
    repl.term.keys('Enter');
    await repl.term.waitFor('Ask anything', { what: 'the REPL after the trust answer' });

    repl.term.type('hello');
    repl.term.keys('Enter');
    await repl.term.waitFor('hooked answer', { what: 'the turn' });
    expect(userText(script.agentRequests[0] ?? {})).toContain('PROJECT-HOOK-CONTEXT');

    repl.term.type('/hooks');
    repl.term.keys('Enter');
    const listed = await repl.term.waitFor(/last run \d\d:\d\d:\d\d: ok \(exit 0, \d+ ms\)/, { what: '/hooks' });
    expect(listed).toContain('UserPromptSubmit: echo PROJECT-HOOK-CONTEXT');
    expect(listed).toContain(join('.claude', 'settings.json'));
    repl.term.kill();
  });
});
