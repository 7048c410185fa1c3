/**
 * MCP in the REPL, through the built binary in tmux: the trust question lists a project server's command line and
 * answering yes starts it; an MCP tool call asks (as Bash does) and runs once allowed. The REPL tests run the text
 * protocol (repl-launch.ts), so MCP tools are described in the system prompt there.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { userText } from '../helpers/fake-anthropic-server.js';
import { act } from './support/agent-script.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';

const runHere = tmuxTestsRun();
const harness = replHarness();
const HOSTILE = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));

describe.runIf(runHere)('mca REPL in tmux: MCP', () => {
  it('the trust question shows the project server command line; yes starts it; a call to its tool asks first', async () => {
    const mcpJson = JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [HOSTILE, 'work'] } } });
    const { script, url } = await harness.fake([
      act('Use the server.', 'mcp__proj__work', {}),
      { text: 'Thought: done\nAction: Finish[all done here]' },
    ]);
    const repl = await launchRepl(url, { files: { '.mcp.json': mcpJson }, columns: 220 });
    harness.defer(() => repl.cleanup());
    const term = repl.term;
    const question = await term.waitFor('Trust this project?', { what: 'the trust question' });
    expect(question).toContain('MCP server "proj" runs:');
    expect(question).toContain('hostile-server.mjs work');
    term.type('y');
    term.keys('Enter');
    await term.waitFor('Ask anything', { what: 'the REPL input box' });
    expect(script.agentRequests).toHaveLength(0);
    term.type('use the server');
    term.keys('Enter');
    await term.waitFor('Allow mcp__proj__work', { what: 'the MCP permission prompt' });
    term.keys('1');
    await term.waitFor('all done here', { what: 'the answer after the call' });
    // The result's line says what the server answered, not only its size (issue 41).
    await term.waitFor(/worked.* · \d+ chars from proj/, { what: 'the MCP result line', scope: 'all' });
    expect(userText(script.agentRequests[1] ?? {})).toContain('worked');
    expect(userText(script.agentRequests[0] ?? {})).toContain('use the server');
  }, 120_000);
});
