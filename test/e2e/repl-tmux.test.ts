/**
 * The REPL end to end: the built `mca` binary in a real terminal (tmux), talking to the loopback fake Anthropic
 * server. One session walks through an @mention, an approved Edit with its diff, /context, an approved Bash that is
 * interrupted with Ctrl-C (and whose process must be gone), /compact, and the exit back to the shell prompt.
 *
 * Ink hides its live area when CI is set, so mca runs with CI unset. Set MCA_E2E_SCREENS=<dir> to keep the screens
 * the test sees (the README's "Interactive use" screen comes from there).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { runsWith } from '../helpers/optional-tools.js';
import { act, agentScript, finish } from './support/agent-script.js';
import { processesMatching } from './support/processes.js';
import { TmuxSession, tmuxInfo, waitUntil } from './support/tmux.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const binary = join(repo, 'dist/cli/mca.cjs');
const tmux = tmuxInfo();
// Under .ci/run (MCA_REQUIRE_OPTIONAL_TOOLS=1) a missing tmux is a broken setup: the test runs and fails clearly.
const runHere = runsWith('tmux', tmux.available, 'the tmux REPL e2e test');

const COLUMNS = 80;
const ROWS = 40;
const PROMPT = 'e2e$ ';
const MENTION_REMINDER =
  '<system-reminder>\nThe user mentioned @math.js.\nYou MUST read this file with the Read tool before answering.\n</system-reminder>';

const SUMMARY = [
  '## 📌 Archived Session Summary',
  '### ✅ Completed Milestones (The "Done" Pile)',
  '* [✓] Fixed `add` in math.js - it returned a - b',
].join('\n');

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function saveScreen(name: string, text: string): Promise<void> {
  const dir = process.env.MCA_E2E_SCREENS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.txt`), `${text}\n`);
}

/** A temp project with math.js, an MCA_HOME, and a launcher script so the typed command line stays short. */
async function setUp(server: FakeAnthropic): Promise<{ root: string; project: string; launcher: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'mca-repl-e2e-')));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const project = join(root, 'project');
  await mkdir(project);
  await mkdir(join(root, 'home'));
  await writeFile(join(project, 'math.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
  const launcher = join(root, 'mca.sh');
  const env = [
    'ANTHROPIC_API_KEY=sk-test',
    `ANTHROPIC_BASE_URL=${quote(server.url)}`,
    `MCA_HOME=${quote(join(root, 'home'))}`,
    // HOME is the temp root too: nothing touches the real home, and the status line shows ~/project.
    `HOME=${quote(root)}`,
    // One retained round, so /compact has the first round to archive after the second one closes.
    'MCA_MIN_RETAIN_ROUNDS=1',
  ].join(' ');
  await writeFile(
    launcher,
    `#!/bin/sh\ncd ${quote(project)} || exit 97\nexec env -u CI ${env} ${quote(process.execPath)} ${quote(binary)}\n`,
  );
  await chmod(launcher, 0o755);
  return { root, project, launcher };
}

describe.runIf(runHere)('mca REPL in tmux', () => {
  it('mentions, edits with approval, shows /context, interrupts Bash, compacts and exits to the shell', async () => {
    expect(tmux.available, 'tmux is required for this test; install it (see .ci/run)').toBe(true);
    expect(existsSync(binary), `${binary} is missing; run npm run build first`).toBe(true);

    const script = agentScript(
      [
        act('The user mentioned math.js; I must read it first.', 'Read', { path: 'math.js' }),
        act('add subtracts instead of adding.', 'Edit', {
          path: 'math.js',
          old_string: 'return a - b;',
          new_string: 'return a + b;',
        }),
        finish('Fixed.', 'Fixed `add` in math.js: it now returns **a + b** instead of a - b.'),
        act('Run the slow check.', 'Bash', { command: 'sleep 30' }),
      ],
      { text: SUMMARY },
    );
    const server = await startFakeAnthropic([script.step], { loop: true });
    cleanups.push(() => server.close());
    const { root, project, launcher } = await setUp(server);

    const term = new TmuxSession();
    cleanups.push(() => term.kill());
    term.start({
      command: `env -u CI PS1=${quote(PROMPT)} HISTFILE=/dev/null bash --norc --noprofile`,
      columns: COLUMNS,
      rows: ROWS,
      cwd: root,
    });
    await term.waitFor((text) => text.endsWith(PROMPT.trimEnd()), { what: 'the shell prompt' });
    term.type(`${quote(launcher)}; echo "[mca exited $?]"`);
    term.keys('Enter');
    await term.waitFor('Ask anything', { what: 'the REPL input box' });
    await term.waitFor(/^claude-sonnet-5-5 · ~\/project · ctx – · [0-9a-f]{8}$/m, { what: 'the status line' });

    // An @mention: suggested while typing, announced in the transcript, sent as the exact reminder.
    term.type('fix @math.js');
    await term.waitFor(/^\s+@math\.js$/m, { what: 'the @path suggestion' });
    term.keys('Enter');
    const prompt = await term.waitFor('Allow Edit(math.js)?', { what: 'the Edit permission prompt' });
    expect(prompt).toContain('Mentioned @math.js');
    expect(prompt).not.toContain('@@math.js');
    expect(prompt).toMatch(/−\s+return a - b;/);
    expect(prompt).toMatch(/\+\s+return a \+ b;/);
    expect(prompt).toContain('1. Yes');
    expect(userText(script.agentRequests[0] ?? {})).toContain(`fix @math.js\n\n${MENTION_REMINDER}`);
    await saveScreen('permission', prompt);

    // Approve with 1: the edit lands, the diff stays in the transcript, the streamed answer arrives.
    term.keys('1');
    const answered = await term.waitFor(/it now returns a \+ b instead of a - b\./, { what: 'the answer' });
    expect(answered).toContain('1 replacement');
    expect(answered).toMatch(/\+\s+return a \+ b;/);
    expect(answered).not.toContain('Allow Edit');
    expect(await readFile(join(project, 'math.js'), 'utf8')).toContain('return a + b;');
    expect(script.agentRequests.map((body) => body.stream)).toEqual([true, true, true]);
    await term.waitFor('Ask anything', { what: 'the input box after the turn' });
    await saveScreen('turn', term.screen());

    // /context: one bar per layer, with the layer names readable.
    term.type('/context');
    term.keys('Enter');
    const context = await term.waitFor(/^Free\s+░+\s+[\d,]+\s+\d+%$/m, { what: 'the /context bars' });
    expect(context).toMatch(/^System \+ tools \(L1\)\s+█+\s+[\d,]+\s+\d+%$/m);
    expect(context).toMatch(/^History \(L3\)\s+█+\s+[\d,]+\s+/m);
    expect(context).toContain('200,000 token window');
    expect(context).toContain('1 round · 0 summaries');
    await saveScreen('context', context);

    // A long Bash: approve it, see it running, Ctrl-C it; its process must not outlive the interrupt.
    term.type('run the slow check');
    term.keys('Enter');
    await term.waitFor('Allow Bash(sleep 30)?', { what: 'the Bash permission prompt' });
    term.keys('1');
    await waitUntil(() => processesMatching('sleep 30', project).length > 0, 'the sleep 30 process to start');
    await term.waitFor(/Running Bash.*Ctrl-C to interrupt/, { what: 'the running Bash spinner' });
    term.keys('C-c');
    const interrupted = await term.waitFor(/^Interrupted$/m, { what: 'the Interrupted notice' });
    await saveScreen('interrupted', interrupted);
    await waitUntil(() => processesMatching('sleep 30', project).length === 0, 'the sleep 30 process to end');
    await term.waitFor('Ask anything', { what: 'the input box after the interrupt' });

    // /compact archives the first round with the scripted summary.
    term.type('/compact');
    term.keys('Enter');
    const compaction = /✻ Conversation compacted: [\d,]+ → [\d,]+ tokens · 1 round kept · 1 archived$/m;
    await term.waitFor(compaction, { what: 'the compaction line' });
    expect(script.summaryRequests).toHaveLength(1);
    expect(userText(script.summaryRequests[0] ?? {})).toContain('fix @math.js');
    term.type('/context');
    term.keys('Enter');
    const after = await term.waitFor(/^1 round · 1 summary$/m, { what: '/context after compaction' });
    expect(after).toMatch(/^Archived summaries\s+█+\s+[\d,]+\s+/m);

    // Exit: one Ctrl-C arms the exit, Ctrl-D leaves; the shell gets the terminal back in its normal mode.
    term.keys('C-c');
    await term.waitFor('Press Ctrl-C again to exit', { what: 'the exit hint' });
    term.keys('C-d');
    const exited = await term.waitFor((text) => /\[mca exited 0\]\ne2e\$$/.test(text), {
      what: 'the shell prompt after exit',
    });
    await saveScreen('exit', exited);
    term.type('echo "back-$((6 * 7))"');
    term.keys('Enter');
    await term.waitFor(/^back-42$/m, { what: 'the shell answering in cooked mode' });
    expect(processesMatching(binary, project)).toEqual([]);
    expect(script.pending()).toBe(0);
  }, 240_000);
});
