/**
 * A sign-in withdrawn while the REPL runs: a remote server (server-everything behind the loopback OAuth proxy) is
 * signed in from `/mcp login`, then every token is revoked; the next call fails, the notice and `/mcp` say
 * "needs sign-in" with the `mca mcp login` hint, and the model's next request no longer offers the server's tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProtectedEverything } from '../helpers/oauth-everything.js';
import type { OAuthProtectedMcp } from '../helpers/oauth-protected-mcp.js';
import { HEADLESS_BROWSER } from '../helpers/oauth-signed-in.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();

let remote: OAuthProtectedMcp | undefined;

describe.runIf(runHere)('mca REPL in tmux: a sign-in withdrawn mid-session', () => {
  beforeAll(async () => {
    remote = await startProtectedEverything();
  }, 60_000);

  afterAll(() => remote?.close());

  it('the failed call makes the server needs-auth in /mcp, with the notice, and its tools leave the next request', async () => {
    const config = JSON.stringify({ mcpServers: { remote: { type: 'http', url: remote?.url } } });
    const call = { text: 'calling', calls: [{ id: 'toolu_echo', name: 'mcp__remote__echo', input: { message: 'x' } }] };
    const { script, term } = await harness.start([call, { text: 'after the failed call' }], {
      args: ['--mcp-config', config, '--allowedTools', 'mcp__remote__echo'],
      env: { MCA_BROWSER_COMMAND: HEADLESS_BROWSER, MCA_TOOL_PROTOCOL: 'native' },
      columns: 200,
      rows: 50,
    });
    term.type('/mcp login remote');
    term.keys('Enter');
    await term.waitFor(/MCP server "remote" reconnected: \d+ tools\./, { what: 'the reconnect', timeoutMs: 60_000 });
    remote?.expireTokens();
    remote?.revokeRefreshTokens();
    term.type('call it');
    term.keys('Enter');
    await term.waitFor('after the failed call', { what: 'the answer after the failed call' });
    const screen = await term.waitFor('MCP server "remote" needs sign-in: run `mca mcp login remote`', {
      what: 'the notice',
    });
    expect(screen).toContain('ACCESS_DENIED: MCP server "remote" needs sign-in');
    expect(JSON.stringify(script.agentRequests[1]?.messages?.at(-1)?.content ?? '')).toContain('needs sign-in');
    const offered = (script.agentRequests[1]?.tools as Array<{ name?: string }> | undefined) ?? [];
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((tool) => tool.name?.startsWith('mcp__remote__'))).toEqual([]);
    expect(JSON.stringify(script.agentRequests[0]?.tools ?? [])).toContain('mcp__remote__echo');
    term.type('/mcp');
    term.keys('Enter');
    await term.waitFor(/remote {2}needs sign-in[\s\S]*Manage an MCP server/, {
      what: 'the server waiting for sign-in',
    });
  }, 120_000);
});
