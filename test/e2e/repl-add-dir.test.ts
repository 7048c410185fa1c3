/**
 * `/add-dir` in the REPL through the built binary in tmux: a missing directory is one line and nothing is asked;
 * an existing one is offered with Claude Code's three choices, "remember" writes it to
 * `.claude/settings.local.json`, and the next turn's Read in it succeeds while the system prompt lists it.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemText, userText } from '../helpers/fake-anthropic-server.js';
import { act, finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /add-dir', () => {
  it('refuses a missing directory, and adds and remembers an existing one', async () => {
    const { script, repl, term } = await harness.start([]);
    const extra = join(repl.root, 'extra');
    mkdirSync(extra);
    writeFileSync(join(extra, 'notes.txt'), 'alpha from the added dir\n');
    script.agentRequests.length = 0;

    term.type(`/add-dir ${join(repl.root, 'missing')}`);
    term.keys('Enter');
    await term.waitFor(/Cannot add the directory: .*missing/, { what: 'the one-line refusal' });
    await term.waitFor('does not exist', { what: 'the reason' });

    term.type(`/add-dir ${extra}`);
    term.keys('Enter');
    await term.waitFor('Add to the workspace', { what: 'the add-dir choice' });
    await term.waitFor('Yes, and remember it', { what: 'the remember option' });
    term.type('2');
    await term.waitFor('settings.local.json.', { what: 'the directory saved' });
    const saved = JSON.parse(readFileSync(join(repl.project, '.claude', 'settings.local.json'), 'utf8')) as {
      permissions: { additionalDirectories: string[] };
    };
    expect(saved.permissions.additionalDirectories).toEqual([extra]);
    expect(script.agentRequests).toHaveLength(0);
  }, 120_000);

  it('the next turn reads a file of the added directory and the system prompt lists it', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-add-dir-extra-')));
    harness.defer(() => rmSync(base, { recursive: true, force: true }));
    const extra = join(base, 'extra');
    mkdirSync(extra);
    writeFileSync(join(extra, 'notes.txt'), 'alpha from the added dir\n');
    const { script, term } = await harness.start([
      act('read', 'Read', { path: join(extra, 'notes.txt') }),
      finish('done', 'read the added file'),
    ]);
    term.type(`/add-dir ${extra}`);
    term.keys('Enter');
    await term.waitFor('Add to the workspace', { what: 'the add-dir choice' });
    term.type('1');
    // Not "for this session" alone: the option itself says so, and typing on before the choice is taken would
    // send the prompt's keys to the picker.
    await term.waitFor(`Added ${extra} for this session.`, { what: 'the directory added' });
    term.type('read the notes');
    term.keys('Enter');
    await term.waitFor('read the added file', { what: 'the turn' });
    expect(systemText(script.agentRequests[0] ?? {})).toContain(extra);
    expect(userText(script.agentRequests[1] ?? {})).toContain('alpha from the added dir');
  }, 120_000);
});
