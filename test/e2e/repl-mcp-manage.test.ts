/**
 * `/mcp` in the REPL through the built binary in tmux, with server-everything from npm and a server that fails at
 * start: the list shows the connected server with its tools and the failed one with its reason; reconnect, disable
 * and enable change what the next model request offers; MCP prompts and resources come up in completion; a prompt
 * with an `@server:uri` mention carries the resource's text to the model.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { systemText, userText } from '../helpers/fake-anthropic-server.js';
import { replHarness } from './support/repl-harness.js';
import { launchRepl, tmuxTestsRun } from './support/repl-launch.js';
import { runMca } from '../helpers/run-mca.js';

const runHere = tmuxTestsRun();
const harness = replHarness();
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const CONFIG = JSON.stringify({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    broken: { command: process.execPath, args: ['-e', 'process.stderr.write("boom-no-database\\n"); process.exit(3)'] },
  },
});
const finish = (answer: string) => ({ text: `Thought: done\nAction: Finish[${answer}]` });

describe.runIf(runHere)('mca REPL in tmux: /mcp', () => {
  it('lists a connected server with its tools and a failed one with its reason; reconnect, disable, enable', async () => {
    const { script, term } = await harness.start(
      [finish('ready answer'), finish('first answer'), finish('second answer')],
      { args: ['--mcp-config', CONFIG], columns: 200, rows: 50 },
    );
    // The first request waits for the servers (at most MCP_TIMEOUT): after its answer both have settled.
    term.type('hello');
    term.keys('Enter');
    await term.waitFor('ready answer', { what: 'the first answer' });
    expect(systemText(script.agentRequests[0] ?? {})).toContain('mcp__everything__echo');
    term.type('/mcp');
    term.keys('Enter');
    const shown = await term.waitFor('Manage an MCP server', { what: 'the /mcp list and its picker' });
    expect(shown).toMatch(/everything {2}connected · \d+ tools/);
    expect(shown).toMatch(/tools: .*echo/);
    expect(shown).toMatch(/broken {2}failed/);
    expect(shown).toMatch(/reason: .*boom-no-database/);

    // The picker: the first server, then Reconnect.
    term.keys('Enter');
    await term.waitFor('MCP server everything', { what: 'the action picker' });
    term.keys('Enter');
    await term.waitFor(/MCP server "everything" reconnected: \d+ tools\./, { what: 'the reconnect outcome' });

    term.type('/mcp disable everything');
    term.keys('Enter');
    await term.waitFor('MCP server "everything" disabled for this session.', { what: 'the disable outcome' });
    term.type('hello there');
    term.keys('Enter');
    await term.waitFor('first answer', { what: 'the answer after disabling' });
    expect(systemText(script.agentRequests[1] ?? {})).not.toContain('mcp__everything__echo');

    term.type('/mcp enable everything');
    term.keys('Enter');
    await term.waitFor(/MCP server "everything" enabled for this session: \d+ tools\./, { what: 'the enable outcome' });
    term.type('and again');
    term.keys('Enter');
    await term.waitFor('second answer', { what: 'the answer after enabling' });
    expect(systemText(script.agentRequests[2] ?? {})).toContain('mcp__everything__echo');

    term.type('/mcp reconnect broken');
    term.keys('Enter');
    await term.waitFor(/MCP server "broken" failed: .*boom-no-database/, { what: 'the failed reconnect' });
  }, 180_000);

  it('completion offers MCP prompts after / and resources after @; both reach the model', async () => {
    const { script, term } = await harness.start([finish('weather told'), finish('read it')], {
      args: ['--mcp-config', CONFIG],
      columns: 200,
      rows: 50,
    });
    term.type('/mcp__every');
    await term.waitFor('/mcp__everything__args-prompt <city> [state]', { what: 'the prompt in the suggestions' });
    term.type('thing__args-prompt "San Francisco" CA');
    term.keys('Enter');
    await term.waitFor('weather told', { what: 'the answer to the prompt command' });
    expect(userText(script.agentRequests[0] ?? {})).toContain("What's weather in San Francisco, CA?");
    term.type('summarize @everything:demo://resource/static/document/arch');
    await term.waitFor('everything:demo://resource/static/document/architecture.md', { what: 'the resource entry' });
    term.keys('Tab');
    await term.waitFor('> summarize @everything:demo://resource/static/document/architecture.md', {
      what: 'the completed mention in the input box',
    });
    term.keys('Enter');
    await term.waitFor('read it', { what: 'the answer' });
    const sent = userText(script.agentRequests[1] ?? {});
    expect(sent).toContain('<mcp-resource server="everything" uri="demo://resource/static/document/architecture.md">');
    expect(sent).toContain('Everything Server – Architecture');
  }, 180_000);
});

const CATALOG = fileURLToPath(new URL('../fixtures/mcp/catalog-server.mjs', import.meta.url));
const HOSTILE = fileURLToPath(new URL('../fixtures/mcp/hostile-server.mjs', import.meta.url));

describe.runIf(runHere)('mca REPL in tmux: hostile catalogs and project servers', () => {
  it('a flood of resources is capped in completion, escape sequences stay out, a prompt added later appears', async () => {
    const config = JSON.stringify({ mcpServers: { cat: { command: process.execPath, args: [CATALOG] } } });
    const { script, term } = await harness.start(
      [finish('told about rust'), finish('later done'), finish('all seen')],
      {
        args: ['--mcp-config', config],
        columns: 160,
        rows: 60,
      },
    );
    term.type('/mcp__cat__go');
    await term.waitFor('/mcp__cat__good <topic>', { what: 'the prompt in the suggestions' });
    const listed = term.screen();
    expect(listed).not.toContain('bad name');
    term.type('od rust');
    term.keys('Enter');
    await term.waitFor('told about rust', { what: 'the answer' });
    expect(userText(script.agentRequests[0] ?? {})).toContain('tell me about rust');
    // The server added a prompt and sent prompts/list_changed after that call.
    term.type('/mcp__cat__la');
    await term.waitFor('/mcp__cat__later', { what: 'the prompt added later' });
    term.type('ter');
    term.keys('Enter');
    await term.waitFor('later done', { what: 'the answer to the later prompt' });
    term.type('see @cat:cat://item/1');
    // 200 resources are listed (the rest dropped with a notice); 108 of them start so; 50 are offered (8 shown).
    const completion = await term.waitFor('… 42 more', { what: 'resource entries in the suggestions' });
    expect(completion).toContain('@cat:cat://item/1\n');
    expect(completion).not.toContain('\u001b');
    // What listing reported goes out with the next turn.
    term.keys('Enter');
    await term.waitFor('all seen', { what: 'the answer to the mention' });
    expect(userText(script.agentRequests[2] ?? {})).toContain('content of cat://item/1');
    expect(term.all()).toMatch(/MCP server "cat" lists more than 200 resources; the rest are left out/);
    expect(term.paneTitle()).not.toContain('pwned');
  }, 180_000);

  it('a server that failed at start works after /mcp reconnect: its tools reach the next request', async () => {
    const flaky = [
      "import { existsSync } from 'node:fs';",
      "if (!existsSync('ready.flag')) { process.stderr.write('not-ready-yet\\n'); process.exit(3); }",
      "process.argv[2] = 'work';",
      `await import(${JSON.stringify(HOSTILE)});`,
    ].join('\n');
    const config = JSON.stringify({ mcpServers: { flaky: { command: process.execPath, args: ['flaky.mjs'] } } });
    const { script, repl, term } = await harness.start([finish('settled'), finish('tools seen')], {
      args: ['--mcp-config', config],
      files: { 'flaky.mjs': flaky },
      columns: 200,
      rows: 50,
    });
    // The first request waits for the server to connect or fail.
    term.type('hi');
    term.keys('Enter');
    await term.waitFor('settled', { what: 'the first answer' });
    expect(systemText(script.agentRequests[0] ?? {})).not.toContain('mcp__flaky__work');
    term.type('/mcp');
    term.keys('Enter');
    const failed = await term.waitFor(/reason: .*not-ready-yet/, { what: 'the failed server in /mcp' });
    expect(failed).toMatch(/flaky {2}failed/);
    term.keys('Escape');
    await term.waitFor((screen) => !screen.includes('Manage an MCP server'), { what: 'the picker to close' });
    writeFileSync(join(repl.project, 'ready.flag'), '');
    term.type('/mcp reconnect flaky');
    term.keys('Enter');
    await term.waitFor('MCP server "flaky" reconnected: 1 tools.', { what: 'the reconnect outcome' });
    term.type('go');
    term.keys('Enter');
    await term.waitFor('tools seen', { what: 'the answer' });
    expect(systemText(script.agentRequests[1] ?? {})).toContain('mcp__flaky__work');
  }, 180_000);

  it('disabling a project server writes disabledMcpjsonServers to the local settings; the next run leaves it off', async () => {
    const mcpJson = JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [HOSTILE, 'work'] } } });
    const { url } = await harness.fake([finish('ok')]);
    const repl = await launchRepl(url, { files: { '.mcp.json': mcpJson }, columns: 200, rows: 50 });
    harness.defer(() => repl.cleanup());
    const term = repl.term;
    await term.waitFor('1. Yes, proceed', { what: 'the trust question' });
    term.keys('Enter');
    await term.waitFor('Ask anything', { what: 'the REPL input box' });
    term.type('/mcp disable proj');
    term.keys('Enter');
    await term.waitFor(/MCP server "proj" disabled in .*settings\.local\.json\./, { what: 'the disable outcome' });
    const local = JSON.parse(readFileSync(join(repl.project, '.claude', 'settings.local.json'), 'utf8')) as {
      disabledMcpjsonServers?: string[];
    };
    expect(local.disabledMcpjsonServers).toEqual(['proj']);
    term.type('/mcp');
    term.keys('Enter');
    await term.waitFor(/proj {2}disabled/, { what: 'the disabled server in /mcp' });
    term.keys('Escape');
    await term.waitFor((screen) => !screen.includes('Manage an MCP server'), { what: 'the picker to close' });
    const next = await runMca(['-p', 'hi'], { cwd: repl.project, env: repl.env, timeoutMs: 60_000 });
    expect(next.stderr).toContain('MCP server "proj" not started: it is in disabledMcpjsonServers');
    term.type('/mcp enable proj');
    term.keys('Enter');
    await term.waitFor(/MCP server "proj" enabled in .*settings\.local\.json: 1 tools\./, {
      what: 'the enable outcome',
    });
    const again = JSON.parse(readFileSync(join(repl.project, '.claude', 'settings.local.json'), 'utf8')) as {
      disabledMcpjsonServers?: string[];
      enabledMcpjsonServers?: string[];
    };
    expect(again.disabledMcpjsonServers).toEqual([]);
    expect(again.enabledMcpjsonServers).toEqual(['proj']);
  }, 180_000);
});
