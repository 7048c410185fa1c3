/**
 * A subagent on another model is its own line in `/cost`, priced at that model's rates, and its cost is part of
 * the session file: through the built binary in tmux, `/cost` after `mca -c` shows the same per-model lines as
 * before the restart, the subagent's model included, also after the round that made the Agent call was archived
 * by compaction. A resumed `-p --output-format json` run reports only its own calls in
 * `total_cost_usd` / `modelUsage`, as Claude Code does (its result totals are per process, not per session).
 */
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runMca } from '../helpers/run-mca.js';
import { usageDollars } from '../../src/providers/model-prices.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';
import type { TmuxSession } from './support/tmux.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const QUICK = '---\nname: quick\ndescription: quick lookups\nmodel: claude-haiku-4-5\n---\nYou are QUICK.\n';

/** Runs /cost and returns its per-model lines once the view shows below `after` (the last thing on screen). */
async function costLines(term: TmuxSession, after: string): Promise<string[]> {
  term.type('/cost');
  term.keys('Enter');
  await waitUntil(() => {
    const screen = term.screen();
    const view = screen.lastIndexOf('Session cost');
    return view > screen.lastIndexOf(after) && /Total\s+\$/.test(screen.slice(view));
  }, `/cost below ${after}`);
  const screen = term.screen();
  const view = screen.slice(screen.lastIndexOf('Session cost'));
  return view
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\$[\d.]+ claude-/.test(line));
}

describe.runIf(runHere)('mca REPL in tmux: subagent cost after a resume', () => {
  it("/cost shows the subagent's model line again after compaction and `mca -c`", async () => {
    const { url, script } = await harness.fake([
      {
        text: '',
        calls: [{ id: 'toolu_q', name: 'Agent', input: { subagent_type: 'quick', description: 'q', prompt: 'look' } }],
        usage: { input_tokens: 100_000, output_tokens: 0 },
      },
      { text: 'QUICK-ANSWER', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'PARENT-DONE', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'SECOND-DONE', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'THIRD-DONE', usage: { input_tokens: 10_000, output_tokens: 0 } },
      { text: 'RESUMED-DONE', usage: { input_tokens: 10_000, output_tokens: 0 } },
    ]);
    // One round kept: 100k tokens of context make the third turn compact, archiving the round with the Agent call.
    const env = { MCA_TOOL_PROTOCOL: 'native', MCA_MIN_RETAIN_ROUNDS: '1' };
    const first = await launchRepl(url, {
      files: { '.claude/agents/quick.md': QUICK },
      args: ['--model', 'claude-sonnet-4-5'],
      env,
    });
    harness.defer(() => rm(first.root, { recursive: true, force: true }));
    harness.defer(() => first.term.kill());
    const { term } = first;
    await term.waitFor('1. Yes, proceed', { what: 'the trust question' });
    term.keys('Enter');
    await term.waitFor('Ask anything', { what: 'the REPL after the trust answer' });
    term.type('delegate');
    term.keys('Enter');
    await term.waitFor('PARENT-DONE', { what: 'the parent answer' });
    expect(script.agentRequests.map((body) => body.model)).toEqual([
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-sonnet-4-5',
    ]);
    const live = await costLines(term, 'PARENT-DONE');
    expect(live).toEqual([
      '$0.6000 claude-sonnet-4-5 · 200,000 tokens in/out',
      '$0.1000 claude-haiku-4-5 · 100,000 tokens in/out',
    ]);
    // Each model priced at its own rates: the total is their sum.
    const shown = term.screen();
    expect(shown.slice(shown.lastIndexOf('Session cost'))).toMatch(/Total\s+\$0\.7000/);

    term.type('second');
    term.keys('Enter');
    await term.waitFor('SECOND-DONE', { what: 'the second answer' });
    await term.waitFor('Ask anything', { what: 'the idle box after the second answer' });
    term.type('third');
    term.keys('Enter');
    await term.waitFor(/Conversation compacted: [\s\S]*THIRD-DONE/, { what: 'the compacted third turn' });
    expect(script.summaryRequests.length).toBeGreaterThan(0);
    const before = await costLines(term, 'THIRD-DONE');
    expect(before).toContain('$0.1000 claude-haiku-4-5 · 100,000 tokens in/out');
    expect(before.find((line) => line.includes('claude-sonnet-4-5'))).toBeDefined();
    first.term.kill();

    const again = await launchRepl(url, { args: ['-c'], env, reuse: { root: first.root } });
    harness.defer(() => again.term.kill());
    await again.term.waitFor('Ask anything', { what: 'the resumed REPL' });
    expect(await costLines(again.term, 'mca · ')).toEqual(before);
    again.term.kill();

    // A resumed -p run's result counts this process's calls only (Claude Code's total_cost_usd is per process).
    const resumed = await runMca(['-c', '-p', 'fourth', '--output-format', 'json', '--model', 'claude-sonnet-4-5'], {
      cwd: first.project,
      env: first.env,
    });
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as { result: string; total_cost_usd: number; modelUsage: object };
    expect(result.result).toBe('RESUMED-DONE');
    expect(Object.keys(result.modelUsage)).toEqual(['claude-sonnet-4-5']);
    const own = usageDollars(
      { inputTokens: 10_000, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      'claude-sonnet-4-5',
    );
    expect(result.total_cost_usd).toBeCloseTo(own ?? Number.NaN, 10);
  }, 180_000);
});
