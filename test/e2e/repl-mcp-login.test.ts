/**
 * Signing in from the REPL: a remote server (server-everything behind the loopback OAuth proxy) shows
 * "needs sign-in" in `/mcp`; `/mcp login remote` runs the sign-in (MCA_BROWSER_COMMAND is the headless browser
 * that follows the authorization redirects), reconnects, and the server's tools reach the next model request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemText } from '../helpers/fake-anthropic-server.js';
import { startProtectedEverything } from '../helpers/oauth-everything.js';
import type { OAuthProtectedMcp } from '../helpers/oauth-protected-mcp.js';
import { HEADLESS_BROWSER } from '../helpers/oauth-signed-in.js';
import { replHarness } from './support/repl-harness.js';
import { tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();
const finish = (answer: string) => ({ text: `Thought: done\nAction: Finish[${answer}]` });

let remote: OAuthProtectedMcp | undefined;

describe.runIf(runHere)('mca REPL in tmux: /mcp login', () => {
  beforeAll(async () => {
    remote = await startProtectedEverything();
  }, 60_000);

  afterAll(() => remote?.close());

  it('a server that needs sign-in is signed in from /mcp and its tools reach the next request', async () => {
    const config = JSON.stringify({ mcpServers: { remote: { type: 'http', url: remote?.url } } });
    const { script, term } = await harness.start([finish('before sign-in'), finish('after sign-in')], {
      args: ['--mcp-config', config],
      env: { MCA_BROWSER_COMMAND: HEADLESS_BROWSER },
      columns: 200,
      rows: 50,
    });
    term.type('hello');
    term.keys('Enter');
    await term.waitFor('before sign-in', { what: 'the first answer' });
    expect(systemText(script.agentRequests[0] ?? {})).not.toContain('mcp__remote__echo');
    term.type('/mcp');
    term.keys('Enter');
    await term.waitFor(/remote {2}needs sign-in[\s\S]*Manage an MCP server/, {
      what: 'the server waiting for sign-in',
    });
    // Esc closes the picker; typing waits for that, or Esc and "/" could arrive in one read as Alt+/.
    term.keys('Escape');
    await term.waitFor((screen) => !screen.includes('Manage an MCP server'), { what: 'the picker to close' });
    term.type('/mcp login remote');
    term.keys('Enter');
    await term.waitFor('Signed in to "remote"', { what: 'the sign-in outcome', timeoutMs: 60_000 });
    await term.waitFor(/MCP server "remote" reconnected: \d+ tools\./, { what: 'the reconnect', timeoutMs: 60_000 });
    term.type('and now');
    term.keys('Enter');
    await term.waitFor('after sign-in', { what: 'the answer after sign-in' });
    expect(systemText(script.agentRequests[1] ?? {})).toContain('mcp__remote__echo');
  }, 120_000);
});
