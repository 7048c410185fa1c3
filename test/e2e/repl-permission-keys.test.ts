/**
 * The permission prompt's keys as a Claude Code user presses them, through the built binary in tmux: 1 runs once,
 * 2 runs and stops asking for the command's prefix this session, 3 declines with what to do instead, 4 saves a
 * permanent rule only after `y` (into .claude/settings.local.json, ignored by git the way Claude Code does), a
 * compound command keeps the same numbers (2 is shown but inert), and Esc declines at every step.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { act, finish } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const twoTouches = [
  act('First.', 'Bash', { command: 'touch one.txt' }),
  act('Second.', 'Bash', { command: 'touch two.txt' }),
  finish('Done.', 'both touched'),
];

describe.runIf(runHere)('mca REPL in tmux: permission prompt keys', () => {
  it('1 runs the call once: the next call with the same prefix asks again', async () => {
    const { term, repl } = await harness.start(twoTouches);
    term.type('touch them');
    term.keys('Enter');
    await term.waitFor('Allow Bash(touch one.txt)?', { what: 'the first prompt' });
    term.type('1');
    await term.waitFor('Allow Bash(touch two.txt)?', { what: 'the second prompt' });
    expect(existsSync(join(repl.project, 'one.txt'))).toBe(true);
    term.type('1');
    await term.waitFor('both touched', { what: 'the answer' });
    expect(existsSync(join(repl.project, 'two.txt'))).toBe(true);
  }, 120_000);

  it('2 runs it and does not ask again for the prefix this session; nothing is written to the project', async () => {
    const { term, repl } = await harness.start(twoTouches);
    term.type('touch them');
    term.keys('Enter');
    const prompt = await term.waitFor('Allow Bash(touch one.txt)?', { what: 'the prompt' });
    expect(prompt).toContain("2. Yes, and don't ask again for `touch` commands this session");
    term.type('2');
    const done = await term.waitFor('both touched', { what: 'the answer' });
    expect(done).not.toContain('Allow Bash(touch two.txt)?');
    expect(existsSync(join(repl.project, 'two.txt'))).toBe(true);
    expect(existsSync(join(repl.project, '.claude'))).toBe(false);
    expect(existsSync(join(repl.project, '.mca'))).toBe(false);
  }, 120_000);

  it('3 declines, and the reason typed after it reaches the model; the command never ran', async () => {
    const { term, script, repl } = await harness.start([
      act('Delete.', 'Bash', { command: 'touch deleted-marker' }),
      finish('Fine.', 'did it the other way'),
    ]);
    term.type('clean up');
    term.keys('Enter');
    await term.waitFor('3. No, and tell mca what to do differently (esc)', { what: 'the prompt' });
    term.type('3');
    await term.waitFor('Tell mca what to do differently', { what: 'the reason line' });
    term.type('use make clean instead');
    term.keys('Enter');
    await term.waitFor('did it the other way', { what: 'the answer' });
    expect(existsSync(join(repl.project, 'deleted-marker'))).toBe(false);
    expect(userText(script.agentRequests[1] ?? {})).toContain('use make clean instead');
  }, 120_000);

  it('an ask rule: 2 is not offered, and the prompt names the rule that asks every time (issue 41)', async () => {
    const { term } = await harness.start([act('Say it.', 'Bash', { command: 'echo hi' })], {
      files: { '.claude/settings.json': JSON.stringify({ permissions: { ask: ['Bash(echo:*)'] } }) },
    });
    term.type('say hi');
    term.keys('Enter');
    const prompt = await term.waitFor('Allow Bash(echo hi)?', { what: 'the prompt' });
    expect(prompt).toMatch(/not offered: the ask rule Bash\(echo:\*\) from/);
    expect(prompt).not.toContain('no rule would cover exactly this call');
  }, 120_000);

  it('a compound command keeps 3 = no: 2 is inert and no permanent rule is offered', async () => {
    const { term, script, repl } = await harness.start([
      act('Both.', 'Bash', { command: 'touch a && touch b' }),
      { text: 'Thought: x\nAction: Finish[this reply must never be requested in the declined turn]' },
    ]);
    term.type('touch both');
    term.keys('Enter');
    const prompt = await term.waitFor('Allow Bash(touch a && touch b)?', { what: 'the prompt' });
    expect(prompt).toContain("2. Yes, and don't ask again (not offered");
    expect(prompt).toContain('3. No, and tell mca what to do differently (esc)');
    expect(prompt).not.toContain('4.');
    term.type('2');
    term.type('4');
    // Still asking: neither key answered. 3 then Enter with no reason declines and stops the turn.
    term.type('3');
    await term.waitFor('Tell mca what to do differently', { what: 'the reason line' });
    term.keys('Enter');
    await term.waitFor(/Declined · the turn stopped/, { what: 'the decline notice' });
    expect(script.agentRequests).toHaveLength(1);
    expect(existsSync(join(repl.project, 'a'))).toBe(false);
  }, 120_000);

  it('4 asks to confirm: Esc there declines and saves nothing', async () => {
    const { term, script, repl } = await harness.start([
      act('Test.', 'Bash', { command: 'touch tested.txt' }),
      { text: 'Thought: x\nAction: Finish[this reply must never be requested in the declined turn]' },
    ]);
    term.type('run the tests');
    term.keys('Enter');
    await term.waitFor('4. Always allow Bash(touch:*) here (.claude/settings.local.json; then y)', {
      what: 'the prompt',
    });
    term.type('4');
    await term.waitFor('y = save and run', { what: 'the confirmation' });
    term.keys('Escape');
    await term.waitFor(/Declined · the turn stopped/, { what: 'the decline notice' });
    expect(script.agentRequests).toHaveLength(1);
    expect(existsSync(join(repl.project, 'tested.txt'))).toBe(false);
    expect(existsSync(join(repl.project, '.claude'))).toBe(false);
  }, 120_000);

  it('4 then y saves the rule in .claude/settings.local.json, and git status stays clean', async () => {
    const { term, repl } = await harness.start(twoTouches, { env: { XDG_CONFIG_HOME: '' } });
    const gitEnv = { ...process.env, HOME: repl.root, XDG_CONFIG_HOME: join(repl.root, '.config') };
    execFileSync('git', ['init', '-q'], { cwd: repl.project, env: gitEnv });
    term.type('touch them');
    term.keys('Enter');
    await term.waitFor('Allow Bash(touch one.txt)?', { what: 'the prompt' });
    term.type('4');
    await term.waitFor('y = save and run', { what: 'the confirmation' });
    term.type('y');
    const done = await term.waitFor('both touched', { what: 'the answer' });
    expect(done).toContain('Saved Bash(touch:*) to');
    const written = join(repl.project, '.claude', 'settings.local.json');
    expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual({ permissions: { allow: ['Bash(touch:*)'] } });
    const ignore = readFileSync(join(repl.root, '.config', 'git', 'ignore'), 'utf8');
    expect(ignore).toBe('**/.claude/settings.local.json\n');
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: repl.project,
      env: gitEnv,
      encoding: 'utf8',
    });
    expect(status.split('\n').filter((line) => line.includes('.claude'))).toEqual([]);
  }, 120_000);
});
