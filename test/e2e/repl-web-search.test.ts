/**
 * WebSearch in the REPL through the built binary in tmux (native tool use): the model's first WebSearch call is the
 * permission question; after "1" the next request offers Anthropic's web_search server tool, the search shows one
 * "searched: …" line and the cited page reaches the answer as a Sources list.
 */
import { describe, expect, it } from 'vitest';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

const SEARCH = {
  query: 'node 22 release notes',
  results: [{ title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0' }],
  cited: [{ title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0', text: 'require(esm)' }],
};

describe.runIf(runHere)('mca REPL in tmux: WebSearch', () => {
  it('asks once, then the server search runs and its line and sources show', async () => {
    const { script, term } = await harness.start(
      [
        { text: '', calls: [{ name: 'WebSearch', input: { query: 'node 22 release notes' } }] },
        { text: 'Node 22 can require ES modules.', webSearch: SEARCH },
      ],
      { env: { MCA_TOOL_PROTOCOL: 'native' } },
    );
    term.type("what's new in node 22?");
    term.keys('Enter');
    await term.waitFor('Allow WebSearch(node 22 release notes)?', { what: 'the permission question' });
    term.type('1');
    await term.waitFor('searched: node 22 release notes (1 result)', { what: 'the search line' });
    await term.waitFor('Sources:', { what: 'the sources' });
    await term.waitFor('Node.js 22 is out https://nodejs.org/en/blog/release/v22.0.0', { what: 'the cited page' });
    const tools = (script.agentRequests[1]?.tools ?? []) as Array<{ type?: string; name?: string }>;
    expect(tools.some((tool) => tool.type === 'web_search_20250305')).toBe(true);
    expect(tools.some((tool) => tool.name === 'WebSearch')).toBe(false);
  }, 120_000);
});
