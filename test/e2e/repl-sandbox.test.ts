/**
 * Issue 37 in the REPL through the built binary in tmux: `/sandbox` says what the box allows and switches it for the
 * session, and the user's own `!` lines run outside the box and say so. Needs tmux and bubblewrap (each skips with
 * a printed reason unless MCA_REQUIRE_OPTIONAL_TOOLS=1).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsWith } from '../helpers/optional-tools.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

function bwrapWorks(): boolean {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--', '/bin/true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const runHere = tmuxTestsRun() && runsWith('bwrap', bwrapWorks(), 'the REPL sandbox test');
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /sandbox and ! lines', () => {
  it('/sandbox shows the box, `!` lines run outside it and say so, /sandbox off switches it off', async () => {
    const { repl, term } = await harness.start([], { args: ['--sandbox'] });
    term.type('/sandbox');
    term.keys('Enter');
    await term.waitFor('Sandbox: on (bubblewrap)', { what: 'the sandbox status' });
    await term.waitFor('unix sockets: closed', { what: 'the sandbox details' });

    term.type('!echo hi > bang.txt');
    term.keys('Enter');
    await term.waitFor('outside the sandbox (your own ! line)', { what: 'the ! line note' });
    expect(existsSync(join(repl.project, 'bang.txt'))).toBe(true);

    term.type('/sandbox off');
    term.keys('Enter');
    await term.waitFor('Sandbox: off', { what: 'the sandbox switched off' });
  }, 120_000);
});
