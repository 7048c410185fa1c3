/**
 * A conversation rewind removes messages but not the money their model calls cost: through the built binary
 * against the loopback fake API, two prompts, `mca rewind <id> --conversation` to before the second, then `mca -c`
 * in tmux shows the same `/cost` as before the rewind, while the next request no longer carries the second prompt.
 */
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, prepareProject, tmuxTestsRun } from './support/repl-launch.js';
import type { TmuxSession } from './support/tmux.js';
import { waitUntil } from './support/tmux.js';

const runHere = tmuxTestsRun();
const harness = replHarness();
const MODEL = ['--model', 'claude-sonnet-4-5'];

/** Runs /cost and returns its lines from "Session cost" on, once its total shows below `after`. */
async function costView(term: TmuxSession, after: string): Promise<string[]> {
  term.type('/cost');
  term.keys('Enter');
  await waitUntil(() => {
    const screen = term.screen();
    const view = screen.lastIndexOf('Session cost');
    return view > screen.lastIndexOf(after) && /Total\s+\$/.test(screen.slice(view));
  }, `/cost below ${after}`);
  const screen = term.screen();
  return screen
    .slice(screen.lastIndexOf('Session cost'))
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => /^\$[\d.]+ claude-|^Total \$/.test(line));
}

describe.runIf(runHere)('cost after a conversation rewind', () => {
  it('`mca -c` after `mca rewind <id> --conversation` shows the cost of the rewound calls too', async () => {
    const { url, script } = await harness.fake([
      { text: 'FIRST-DONE', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'SECOND-DONE', usage: { input_tokens: 100_000, output_tokens: 0 } },
      { text: 'THIRD-DONE', usage: { input_tokens: 10_000, output_tokens: 0 } },
    ]);
    const prepared = await prepareProject(url, { env: { MCA_TOOL_PROTOCOL: 'native' } });
    harness.defer(() => rm(prepared.root, { recursive: true, force: true }));
    const run = (args: string[]) => runMca(args, { cwd: prepared.project, env: prepared.env });
    expect((await run(['-p', 'first question', ...MODEL])).code).toBe(0);
    expect((await run(['-c', '-p', 'second question', ...MODEL])).code).toBe(0);

    const list = await run(['rewind', '--list']);
    expect(list.code).toBe(0);
    const newest = list.stdout.trim().split('\n')[0] ?? '';
    expect(newest).toContain('second question');
    const rewound = await run(['rewind', newest.slice(0, 8), '--conversation']);
    expect(rewound.code).toBe(0);

    const repl = await launchRepl(url, {
      args: ['-c', ...MODEL],
      env: { MCA_TOOL_PROTOCOL: 'native' },
      reuse: { root: prepared.root },
    });
    harness.defer(() => repl.term.kill());
    const { term } = repl;
    await term.waitFor(/1\. Yes, proceed|Ask anything/, { what: 'the trust question or the input box' });
    if (term.screen().includes('1. Yes, proceed')) {
      term.keys('Enter');
      await term.waitFor('Ask anything', { what: 'the REPL after the trust answer' });
    }
    // Both 100k-token calls were paid for: $0.30 each at Sonnet 4.5's $3 per million input tokens.
    expect(await costView(term, 'mca · ')).toEqual([
      '$0.6000 claude-sonnet-4-5 · 200,000 tokens in/out',
      'Total $0.6000',
    ]);

    term.type('third question');
    term.keys('Enter');
    await term.waitFor('THIRD-DONE', { what: 'the third answer' });
    const request = userText(script.agentRequests.at(-1) ?? {});
    expect(request).toContain('first question');
    expect(request).not.toContain('second question');
    expect(request).toContain('third question');
  }, 120_000);
});
