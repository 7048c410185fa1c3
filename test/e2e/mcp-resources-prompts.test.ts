/**
 * MCP resources (`@server:uri`) and prompts (`/mcp__<server>__<prompt> args`) through the built binary in `-p`, with
 * server-everything from npm and a hostile catalog server (test/fixtures/mcp/catalog-server.mjs): what the next
 * request to the fake model carries, and what the user sees on stderr and in the exit code.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startFakeAnthropic,
  userText,
  type FakeAnthropic,
  type FakeRequestBody,
} from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-mcp-res-0123456789';
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const CATALOG = fileURLToPath(new URL('../fixtures/mcp/catalog-server.mjs', import.meta.url));
const CONFIG = JSON.stringify({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    cat: { command: process.execPath, args: [CATALOG] },
  },
});

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function run(prompt: string, env: Record<string, string> = {}) {
  const project = tempProject('mca-mcp-res-');
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome, { recursive: true });
  fake = await startFakeAnthropic([{ text: 'done' }]);
  const result = await runMca(['-p', prompt, '--mcp-config', CONFIG], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: fake.url,
      MCA_HOME: project.home,
      HOME: userHome,
      ...env,
    },
    timeoutMs: 90_000,
  });
  const body = fake.requests[0]?.body as FakeRequestBody | undefined;
  return { ...result, sent: body ? userText(body) : undefined, requests: fake.requests.length };
}

describe('MCP resources as @server:uri', () => {
  it('the resource text of server-everything goes with the prompt to the model', async () => {
    const result = await run('summarize @everything:demo://resource/static/document/architecture.md please');
    expect(result.code).toBe(0);
    expect(result.sent).toContain('summarize @everything:demo://resource/static/document/architecture.md please');
    expect(result.sent).toContain(
      '<mcp-resource server="everything" uri="demo://resource/static/document/architecture.md">',
    );
    expect(result.sent).toContain('Everything Server – Architecture');
  }, 120_000);

  it('stream-json input (the Agent SDK protocol): a user message with @server:uri carries the resource too', async () => {
    const project = tempProject('mca-mcp-res-sj-');
    fake = await startFakeAnthropic([{ text: 'done' }]);
    const message = {
      type: 'user',
      message: { role: 'user', content: 'read @everything:demo://resource/static/document/architecture.md' },
      parent_tool_use_id: null,
      session_id: '',
    };
    const result = await runMca(
      ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--mcp-config', CONFIG],
      {
        cwd: project.root,
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url, MCA_HOME: project.home, HOME: project.home },
        stdin: `${JSON.stringify(message)}\n`,
        timeoutMs: 90_000,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const sent = userText(fake.requests[0]?.body as FakeRequestBody);
    expect(sent).toContain('<mcp-resource server="everything" uri="demo://resource/static/document/architecture.md">');
    expect(sent).toContain('Everything Server – Architecture');
  }, 120_000);

  it('an unknown server and a failing read are one line each; a blob is a note; the prompt still runs', async () => {
    const result = await run(
      'look at @nope:demo://x, @cat:cat://fail and @everything:demo://resource/dynamic/blob/1 and @a.ts:12',
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('@nope:demo://x: no MCP server named "nope"');
    expect(result.stderr).toMatch(/@cat:cat:\/\/fail: reading cat:\/\/fail from "cat" failed: .*Resource not found/);
    expect(result.sent).toContain(
      '[binary resource demo://resource/dynamic/blob/1 (text/plain, 57 bytes) not attached]',
    );
    expect(result.sent).not.toContain('uri="cat://fail"');
    expect(result.sent).not.toContain('a.ts:12"');
  }, 120_000);

  it('a huge resource is cut at MAX_MCP_OUTPUT_TOKENS and a binary one is a one-line note', async () => {
    const result = await run('read @cat:cat://big and @cat:cat://bin.', { MAX_MCP_OUTPUT_TOKENS: '1000' });
    expect(result.code).toBe(0);
    expect(result.sent).toContain('BIG-START');
    expect(result.sent).not.toContain('BIG-END');
    expect(result.sent).toMatch(/more characters cut \(MAX_MCP_OUTPUT_TOKENS\)/);
    expect(result.sent).toContain('[binary resource cat://bin (image/png, 3000 bytes) not attached]');
    expect((result.sent ?? '').length).toBeLessThan(8_000);
  }, 120_000);
});

describe('MCP prompts as /mcp__server__prompt', () => {
  it("server-everything's args-prompt: quoted words fill its arguments in order; the model gets the prompt's text", async () => {
    const result = await run('/mcp__everything__args-prompt "New York" NY');
    expect(result.code).toBe(0);
    expect(result.sent).toContain("What's weather in New York, NY?");
  }, 120_000);

  it('a prompt without arguments, and one with an embedded resource (its text goes along)', async () => {
    const simple = await run('/mcp__everything__simple-prompt');
    expect(simple.sent).toContain('This is a simple prompt without arguments.');
    const embedded = await run('/mcp__cat__two first second third');
    expect(embedded.code).toBe(0);
    expect(embedded.sent).toContain('two says first and second third');
    expect(embedded.sent).toContain('EMBEDDED-TEXT');
  }, 120_000);

  it('a missing required argument is one line naming it; nothing is sent to the model', async () => {
    const result = await run('/mcp__everything__args-prompt');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('/mcp__everything__args-prompt needs the argument "city"');
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(result.requests).toBe(0);
  }, 120_000);

  it('prompt names that are no command name are left out with a notice; escape sequences never reach stderr', async () => {
    const result = await run('/mcp__cat__good rust');
    expect(result.code).toBe(0);
    expect(result.sent).toContain('tell me about rust');
    expect(result.stderr).toContain('prompt "bad name" left out: not a valid command name');
    expect(result.stderr).toContain('left out: not a valid command name');
    expect(result.stderr).not.toContain('\u001b');
  }, 120_000);

  it('an unknown prompt of a configured server is one line', async () => {
    const result = await run('/mcp__everything__no-such-prompt');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no MCP prompt /mcp__everything__no-such-prompt');
    expect(result.requests).toBe(0);
  }, 120_000);
});
