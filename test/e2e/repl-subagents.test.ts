/**
 * A subagent's steps in the REPL, through the built binary in tmux: the normal transcript shows the Agent call and
 * its answer only; Ctrl-O (the verbose transcript) shows the subagent's tool calls, one line each, under the call;
 * `/agents` lists the session's subagent runs with their transcripts. The call is made under the older name `Task`
 * and shown under that name with the subagent's type and task. (A subagent's own line in `/cost`:
 * repl-subagent-cost.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { saveScreen, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const FILES = {
  'alpha.txt': 'ALPHA-CONTENT\n',
  'beta.txt': 'BETA-CONTENT\n',
};

describe.runIf(runHere)('mca REPL in tmux: subagent steps', () => {
  it('Ctrl-O shows the subagent steps under its Agent call; /agents lists the run and its transcript', async () => {
    const { term, script } = await harness.start(
      [
        {
          text: 'Delegating.',
          calls: [
            {
              id: 'toolu_explore_1',
              name: 'Task',
              input: { subagent_type: 'Explore', description: 'read two files', prompt: 'Read alpha and beta.' },
            },
          ],
        },
        // The subagent (Explore, read-only) reads two files, then answers.
        {
          text: '',
          calls: [
            { id: 'toolu_sub_a', name: 'Read', input: { path: 'alpha.txt' } },
            { id: 'toolu_sub_b', name: 'Grep', input: { pattern: 'BETA', path: '.' } },
          ],
        },
        { text: 'SUBAGENT-SAYS: both files exist.' },
        { text: 'PARENT-FINAL: the subagent read both.' },
      ],
      { env: { MCA_TOOL_PROTOCOL: 'native' }, files: FILES },
    );
    term.type('look at the files');
    term.keys('Enter');
    const done = await term.waitFor('PARENT-FINAL', { what: 'the parent answer' });
    expect(script.agentRequests).toHaveLength(4);
    // The call shows under the name the model used, with the subagent's type and task; its steps stay hidden.
    expect(done).toMatch(/Task\(Explore: read two files\)/);
    expect(done).toMatch(/Done \(2 steps\)|Done \(\d+ steps\)/);
    expect(done).not.toContain('Read(alpha.txt)');

    term.keys('C-o');
    const verbose = await term.waitFor('Read(alpha.txt)', { what: 'the verbose transcript with the steps' });
    await saveScreen('subagent-steps-verbose', verbose);
    const lines = verbose.split('\n');
    const call = lines.findIndex((line) => line.includes('Task(Explore: read two files)'));
    const read = lines.findIndex((line) => line.includes('Read(alpha.txt)'));
    const grep = lines.findIndex((line) => line.includes('Grep(BETA'));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(read).toBeGreaterThan(call);
    expect(grep).toBeGreaterThan(read);
    expect(lines.slice(grep).join('\n')).toContain('SUBAGENT-SAYS');
    term.keys('C-o');
    await term.waitFor((text) => !text.includes('Read(alpha.txt)'), { what: 'the normal transcript again' });

    term.type('/agents');
    term.keys('Enter');
    const agents = await term.waitFor('Subagent runs in this session', { what: '/agents runs' });
    await saveScreen('subagent-runs', agents);
    // The path may wrap anywhere: read the pane without its whitespace.
    expect(agents.replace(/\s+/g, '')).toMatch(/transcript\/\S+\.agents\/toolu_explore_1\.jsonl/);
    expect(agents).toMatch(/toolu_explore_1 Explore: Read alpha and beta\./);
    expect(agents).toMatch(/2 tool calls \(Read, Grep\)/);
    expect(agents).toMatch(/Explore \(built-in;/);
  }, 120_000);
});
