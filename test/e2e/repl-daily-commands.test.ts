/**
 * The daily commands a Claude Code user reaches for, through the built binary in tmux: `#` adds a note to the
 * memory file picked (and the next request carries it), `/init` is a turn with the CLAUDE.md prompt, `/memory`
 * opens the picked file in $EDITOR, `/status`, `/doctor`, `/config`, `/permissions`, `/export`, `/model`'s picker
 * and validation.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemText, userText } from '../helpers/fake-anthropic-server.js';
import { finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: daily commands', () => {
  it('# adds a note to the memory file picked, and the next request carries it', async () => {
    const { script, repl, term } = await harness.start([finish('ok', 'noted answer')]);
    term.type('# always run npm test before committing');
    term.keys('Enter');
    await term.waitFor('Add to memory', { what: 'the memory picker' });
    term.type('2');
    await term.waitFor(/Added to .*CLAUDE\.local\.md/, { what: 'the note saved' });
    const local = readFileSync(join(repl.project, 'CLAUDE.local.md'), 'utf8');
    expect(local).toBe('- always run npm test before committing\n');
    expect(existsSync(join(repl.project, 'CLAUDE.md'))).toBe(false);
    expect(script.agentRequests).toHaveLength(0);

    term.type('hello');
    term.keys('Enter');
    await term.waitFor('noted answer', { what: 'the turn' });
    expect(systemText(script.agentRequests[0] ?? {})).toContain('always run npm test before committing');
  }, 120_000);

  it('Esc closes the memory picker without writing anything', async () => {
    const { repl, term } = await harness.start([]);
    term.type('# a note nobody keeps');
    term.keys('Enter');
    await term.waitFor('Add to memory', { what: 'the memory picker' });
    term.keys('Escape');
    await term.waitFor('Ask anything', { what: 'the input box again' });
    expect(existsSync(join(repl.project, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(join(repl.project, 'CLAUDE.local.md'))).toBe(false);
  }, 120_000);

  it('/init runs a turn with the CLAUDE.md prompt', async () => {
    const { script, term } = await harness.start([finish('done', 'wrote it')]);
    term.type('/init');
    term.keys('Enter');
    await term.waitFor('wrote it', { what: 'the /init turn' });
    expect(userText(script.agentRequests[0] ?? {})).toContain('create a CLAUDE.md file in the project root');
  }, 120_000);

  it('/memory opens the picked file in $EDITOR and /export writes the conversation', async () => {
    const {
      script: _script,
      repl,
      term,
    } = await harness.start([finish('ok', 'the answer')], {
      env: { EDITOR: '' },
    });
    // The editor: a script that appends a line to the file it is given.
    const editor = join(repl.root, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\necho "- edited by the editor" >> "$1"\n');
    chmodSync(editor, 0o755);
    term.kill();
    const again = await harness.start([finish('ok', 'the answer')], {
      env: { EDITOR: editor },
      reuse: { root: repl.root },
    });
    again.term.type('/memory');
    again.term.keys('Enter');
    await again.term.waitFor('Open a memory file in $EDITOR', { what: "/memory's picker" });
    again.term.keys('Enter');
    await again.term.waitFor(/Edited .*CLAUDE\.md/, { what: 'the editor run' });
    expect(readFileSync(join(repl.project, 'CLAUDE.md'), 'utf8')).toBe('- edited by the editor\n');

    again.term.type('question one');
    again.term.keys('Enter');
    await again.term.waitFor('the answer', { what: 'a turn' });
    again.term.type('/export talk.md');
    again.term.keys('Enter');
    await again.term.waitFor(/Exported the conversation to .*talk\.md/, { what: '/export' });
    const exported = readFileSync(join(repl.project, 'talk.md'), 'utf8');
    expect(exported).toContain('## User\n\nquestion one');
    expect(exported).toContain('## Assistant');
    expect(exported).toContain('the answer');
  }, 120_000);

  it('/status, /doctor, /config and /permissions show what is in effect', async () => {
    const { term } = await harness.start([], {
      files: { '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }) },
      columns: 160,
    });
    term.type('/status');
    term.keys('Enter');
    const status = await term.waitFor('MCP servers: 0', { what: '/status' });
    expect(status).toMatch(/Version: \d+\.\d+\.\d+/);
    expect(status).toContain('API key: ANTHROPIC_API_KEY (environment)');
    expect(status).toMatch(/Settings files: .*\.claude\/settings\.json/);
    expect(status).toContain('Hooks: 0');

    term.type('/permissions');
    term.keys('Enter');
    await term.waitFor(/deny:\s+Read\(\.\/\.env\)/, { what: '/permissions' });

    term.type('/config');
    term.keys('Enter');
    await term.waitFor('Settings in effect', { what: '/config' });
    await term.waitFor(/model: claude-/, { what: "/config's model line" });

    term.type('/doctor');
    term.keys('Enter');
    await term.waitFor(/[✓✗] ripgrep/, { what: '/doctor' });
    await term.waitFor(/✓ terminal: TERM=/, { what: "/doctor's terminal line" });
  }, 120_000);

  it('/model opens a picker of known models and refuses a name that is not one', async () => {
    const { term } = await harness.start([]);
    term.type('/model');
    term.keys('Enter');
    const picker = await term.waitFor('claude-haiku-4-5', { what: 'the model picker' });
    const digit = /(\d)\. claude-haiku-4-5/.exec(picker)?.[1] ?? '';
    expect(digit).not.toBe('');
    term.type(digit);
    await term.waitFor('Model set to claude-haiku-4-5.', { what: 'the picked model' });
    term.type('/model not a model');
    term.keys('Enter');
    await term.waitFor('"not a model" is not a model name', { what: 'the refusal' });
    term.type('/modle');
    term.keys('Enter');
    await term.waitFor('Unknown command /modle. Did you mean /model?', { what: 'the suggestion' });
  }, 120_000);
});
