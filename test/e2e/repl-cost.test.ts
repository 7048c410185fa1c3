/**
 * `/cost` adds up through the built binary: each call is priced at the model that made it (a `/model` switch
 * never re-prices the past), one line per model, and the total survives compaction and a resume (`-c`).
 */
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runMca } from '../helpers/run-mca.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, prepareProject, tmuxTestsRun } from './support/repl-launch.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

describe.runIf(runHere)('mca REPL in tmux: /cost', () => {
  it('prices each call at its own model across /model, compaction and resume', async () => {
    const server = await harness.fake([
      { text: 'Thought: ok\nAction: Finish[Opus answered.]', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'Thought: ok\nAction: Finish[Sonnet answered.]', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'Thought: ok\nAction: Finish[Haiku answered.]', usage: { input_tokens: 10_000, output_tokens: 0 } },
    ]);
    const env = { MCA_MIN_RETAIN_ROUNDS: '1' };
    const prepared = await prepareProject(server.url, { env });
    harness.defer(() => rm(prepared.root, { recursive: true, force: true }));
    const runIn = (prompt: string, extra: string[]) =>
      runMca(['-p', prompt, ...extra], { cwd: prepared.project, env: prepared.env });
    expect((await runIn('first', ['--model', 'claude-opus-4-5'])).code).toBe(0);
    expect((await runIn('second', ['-c', '--model', 'claude-sonnet-4-5'])).code).toBe(0);

    const open = async () => {
      const repl = await launchRepl(server.url, { args: ['-c'], env, reuse: { root: prepared.root } });
      harness.defer(() => repl.cleanup());
      await repl.term.waitFor('Ask anything', { what: 'the input box' });
      return repl;
    };
    /** Runs /cost and returns its output once it shows below `after` (the last thing on screen before it). */
    const cost = async (term: Awaited<ReturnType<typeof open>>['term'], after: string, total: string) => {
      term.type('/cost');
      term.keys('Enter');
      await waitUntil(() => {
        const screen = term.screen();
        return screen.lastIndexOf('Session cost') > screen.lastIndexOf(after) && screen.includes('Total');
      }, `/cost below ${after}`);
      const screen = term.screen();
      const shown = screen.slice(screen.lastIndexOf('Session cost'));
      expect(shown).toMatch(new RegExp(`Total\\s+\\$${total.replace('.', '\\.')}`));
      return shown;
    };

    const first = await open();
    const term = first.term;
    const start = await cost(term, 'mca · ', '0.8000');
    expect(start).toMatch(/\$0\.5000 claude-opus-4-5 · 100,000 tokens in\/out/);
    expect(start).toMatch(/\$0\.3000 claude-sonnet-4-5 · 100,000 tokens in\/out/);

    term.type('/model claude-haiku-4-5');
    term.keys('Enter');
    await term.waitFor('Model set to claude-haiku-4-5.');
    // The switch re-prices nothing: the same total, the same lines.
    expect(await cost(term, 'Model set to claude-haiku-4-5.', '0.8000')).toMatch(/\$0\.5000 claude-opus-4-5/);
    term.type('third');
    term.keys('Enter');
    // 100k tokens of context with one round kept: this turn compacts first (the archived rounds keep their cost).
    await term.waitFor(/Conversation compacted: .* 1 archived[\s\S]*Haiku answered\./, { what: 'the compacted turn' });
    const three = await cost(term, 'Haiku answered.', '0.8100');
    expect(three).toMatch(/\$0\.5000 claude-opus-4-5 · 100,000 tokens in\/out/);
    expect(three).toMatch(/\$0\.0100 claude-haiku-4-5 · 10,000 tokens in\/out/);
    await first.cleanup();

    const again = (await open()).term;
    const resumed = await cost(again, 'mca · ', '0.8100');
    expect(resumed).toMatch(/\$0\.5000 claude-opus-4-5/);
    expect(resumed).toMatch(/\$0\.3000 claude-sonnet-4-5/);
    expect(resumed).toMatch(/\$0\.0100 claude-haiku-4-5/);
  }, 180_000);
});
