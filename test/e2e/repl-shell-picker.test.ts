/**
 * More of the REPL through the built binary in tmux: `!command` shell mode (output shown, sent to the model with
 * the next message, Ctrl-C stops it), `mca -r` opening the session picker (newest first) with the resumed session's
 * Bash output replayed as it was, /cost, the suggestion list driven by arrows, and Ctrl-O's verbose transcript.
 */
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { act } from './support/agent-script.js';
import { processesMatching } from './support/processes.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, prepareProject, tmuxTestsRun } from './support/repl-launch.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: shell mode, picker, cost, suggestions, verbose', () => {
  it('runs !command without asking, shows its output, sends it with the next message; Ctrl-C stops one', async () => {
    const { script, repl, term } = await harness.start([
      { text: 'Thought: ok\nAction: Finish[It printed the greeting.]' },
    ]);
    term.type('!');
    await term.waitFor(/^│ ! /m, { what: 'the shell-mode prompt' });
    term.type('echo hi-from-shell && pwd');
    term.keys('Enter');
    const shown = await term.waitFor(/^\s+hi-from-shell$/m, { what: 'the command output' });
    expect(shown).toContain('● ! echo hi-from-shell && pwd');
    expect(shown).toContain('exit 0 · 2 stdout lines');
    expect(shown).toContain(repl.project);
    expect(shown).not.toContain('Allow');
    expect(script.agentRequests).toHaveLength(0);

    term.type('!sleep 30');
    term.keys('Enter');
    await waitUntil(() => processesMatching('sleep 30', repl.project).length > 0, 'sleep 30 to start');
    term.keys('C-c');
    await term.waitFor(/interrupted/, { what: 'the interrupted command' });
    await waitUntil(() => processesMatching('sleep 30', repl.project).length === 0, 'sleep 30 to end');

    term.type('what did it print?');
    term.keys('Enter');
    await term.waitFor('It printed the greeting.');
    const sent = userText(script.agentRequests[0] ?? {});
    expect(sent).toContain('<user-shell-command>');
    expect(sent).toContain('$ echo hi-from-shell && pwd\nhi-from-shell');
    expect(sent).toContain('$ sleep 30');
    expect(sent).toContain('what did it print?');
  }, 120_000);

  it('a !command that prints the API key shows and sends [REDACTED], never the key', async () => {
    const key = 'sk-ant-shell-secret-123';
    const { script, term } = await harness.start([{ text: 'Thought: ok\nAction: Finish[Noted.]' }], {
      env: { ANTHROPIC_API_KEY: key },
    });
    // The command text does not hold the key; only its output does (as a command reading /proc/$PPID/environ would).
    term.type("!printf '%s-%s\\n' sk-ant-shell secret-123");
    term.keys('Enter');
    const shown = await term.waitFor(/^\s+\[REDACTED\]$/m, { what: 'the redacted output' });
    expect(shown).not.toContain(key);
    term.type('what was that?');
    term.keys('Enter');
    await term.waitFor('Noted.');
    const sent = JSON.stringify(script.agentRequests[0] ?? {});
    expect(sent).toContain('[REDACTED]');
    expect(sent).not.toContain(key);
  }, 120_000);

  it('mca -r opens the picker newest first; the resumed session replays its Bash output; /cost adds it up', async () => {
    const server = await harness.fake([
      { text: 'Thought: ok\nAction: Finish[Alpha answered.]', usage: { input_tokens: 1000, output_tokens: 200 } },
      act('Run it.', 'Bash', { command: 'echo replay-output-line' }),
      { text: 'Thought: ok\nAction: Finish[Beta answered.]', usage: { input_tokens: 3000, output_tokens: 100 } },
    ]);
    const prepared = await prepareProject(server.url, {});
    const runIn = (prompt: string, extra: string[] = []) =>
      runMca(['-p', prompt, ...extra], { cwd: prepared.project, env: prepared.env });
    expect((await runIn('first request alpha')).code).toBe(0);
    const beta = await runIn('second request beta', ['--permission-mode', 'bypassPermissions']);
    expect(beta.stdout).toContain('Beta answered.');

    const repl = await launchRepl(server.url, { args: ['-r'], reuse: { root: prepared.root } });
    harness.defer(async () => {
      await repl.cleanup();
      await rm(prepared.root, { recursive: true, force: true });
    });
    const term = repl.term;
    const picker = await term.waitFor('Resume a session', { what: 'the session picker' });
    const beta1 = picker.indexOf('second request beta');
    const alpha1 = picker.indexOf('first request alpha');
    expect(beta1).toBeGreaterThan(-1);
    expect(alpha1).toBeGreaterThan(beta1);
    expect(picker).toMatch(/❯ \d{4}-\d\d-\d\d \d\d:\d\d · [0-9a-f]{8} · \d+ msgs · second request beta/);
    term.keys('Enter');
    const resumed = await term.waitFor(/Resumed session [0-9a-f]{8}/, { what: 'the resumed session' });
    expect(resumed).toContain('● Bash(echo replay-output-line)');
    expect(resumed).toContain('exit 0 · 1 stdout line');
    expect(resumed).toMatch(/^\s+replay-output-line$/m);
    expect(resumed).not.toContain('no output');
    expect(resumed).toMatch(/ctx \d+% · \$0\.\d{4} · /);

    term.type('/cost');
    term.keys('Enter');
    const cost = await term.waitFor(/Total\s+\$0\.\d{4}/, { what: '/cost' });
    expect(cost).toMatch(/\$0\.\d{4} claude-sonnet-5-5 · [\d.,k]+ tokens in\/out/);
    // Beta's two calls: 100 input tokens for the Bash step (the fake's default) and 3,000 for the answer.
    expect(cost).toMatch(/Input\s+3,100 tokens/);
    expect(cost).toMatch(/Cache read\s+0 tokens/);
  }, 120_000);

  it('moves through / suggestions with the arrows and runs the highlighted one with Enter; Ctrl-O shows all output', async () => {
    const output = Array.from({ length: 12 }, (_, index) => `out-line-${String(index + 1).padStart(2, '0')}`);
    const { term } = await harness.start(
      [
        act('Print.', 'Bash', { command: `printf '${output.join('\\n')}\\n'` }),
        { text: 'Thought: ok\nAction: Finish[Printed.]' },
      ],
      { args: ['--permission-mode', 'bypassPermissions'] },
    );
    term.type('/co');
    const list = await term.waitFor('/cost', { what: 'the suggestions' });
    expect(list).toMatch(/\/compact \[focus\]/);
    expect(list).toMatch(/\/context/);
    term.keys('Down');
    term.keys('Down');
    term.keys('Enter');
    await term.waitFor('200,000 token window', { what: '/context run from the list' });

    term.type('print twelve lines');
    term.keys('Enter');
    const short = await term.waitFor('Printed.', { what: 'the answer' });
    expect(short).toContain('… 7 earlier lines (Ctrl-O to show all)');
    const outputLine = (n: string): RegExp => new RegExp(`^\\s+out-line-${n}$`, 'm');
    expect(short).not.toMatch(outputLine('01'));
    expect(short).toMatch(outputLine('12'));
    term.keys('C-o');
    const verbose = await term.waitFor(outputLine('01'), { what: 'the verbose transcript' });
    expect(verbose).toContain('verbose transcript · Ctrl-O to leave');
    expect(verbose).not.toContain('earlier lines');
    expect(verbose.match(new RegExp(outputLine('12').source, 'gm'))).toHaveLength(1);
    term.keys('C-o');
    await term.waitFor((screen) => !outputLine('01').test(screen) && screen.includes('earlier lines'), {
      what: 'the short transcript again',
    });
  }, 120_000);
});
