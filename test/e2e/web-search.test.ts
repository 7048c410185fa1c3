/**
 * WebSearch through the built binary in -p against the loopback fake Anthropic API (native tool use): with an
 * allow rule the request carries Anthropic's `web_search` server tool, the streamed search is one
 * "searched: … (N results)" line and the cited pages reach the answer as a Sources list; a reply that searched and
 * called a tool is sent back as text with those sources (no server blocks); without a rule the client gate
 * `WebSearch` is offered and denied in -p, and nothing searches; in bypassPermissions the gate's call turns the
 * search on with its domain list; the OpenAI-compatible provider offers no WebSearch and answers a call in one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { openaiUserText, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-websearch-0123456789';
let api: FakeAnthropic | undefined;
let openai: FakeOpenAI | undefined;

afterEach(async () => {
  await api?.close();
  await openai?.close();
  api = undefined;
  openai = undefined;
});

const SEARCH = {
  query: 'node 22 release notes',
  results: [
    { title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0' },
    { title: 'Node 22 changelog', url: 'https://github.com/nodejs/node/blob/main/CHANGELOG.md' },
  ],
  cited: [{ title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0', text: 'require(esm)' }],
};

async function run(script: FakeStep[], args: string[]) {
  const project = tempProject('mca-websearch-', { 'main.txt': 'main\n' });
  api = await startFakeAnthropic(script);
  return runMca(['-p', 'what is new in node 22?', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
      MCA_HOME: project.home,
      HOME: project.home,
      MCA_TOOL_PROTOCOL: 'native',
    },
    timeoutMs: 60_000,
  });
}

type Tool = { name?: string; type?: string; max_uses?: number; allowed_domains?: string[] };
function toolsOf(index: number): Tool[] {
  return (api?.requests[index]?.body.tools ?? []) as Tool[];
}
const serverTool = (tools: Tool[]) => tools.find((tool) => tool.type === 'web_search_20250305');

describe('WebSearch through the Anthropic server tool', () => {
  it('with an allow rule: the server tool is offered, the search is one line, the sources reach the answer', async () => {
    const result = await run(
      [{ text: 'Node 22 can require() ES modules.', webSearch: SEARCH }],
      ['--allowedTools', 'WebSearch'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(serverTool(toolsOf(0))).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
    expect(toolsOf(0).some((tool) => tool.name === 'WebSearch')).toBe(false);
    expect(result.stderr).toContain('searched: node 22 release notes (2 results)');
    expect(result.stdout).toContain('Node 22 can require() ES modules.');
    expect(result.stdout).toContain('Sources:\n- Node.js 22 is out <https://nodejs.org/en/blog/release/v22.0.0>');
  });

  it('a reply that searched and called a tool goes back as its text with the sources, no server blocks', async () => {
    const result = await run(
      [
        {
          text: 'Checking the project too.',
          webSearch: SEARCH,
          calls: [{ name: 'Read', input: { path: 'main.txt' } }],
        },
        { text: 'done' },
      ],
      ['--allowedTools', 'WebSearch', '--output-format', 'stream-json', '--verbose'],
    );
    expect(result.code, result.stderr).toBe(0);
    const assistant = api?.requests[1]?.body.messages?.find((message) => message.role === 'assistant');
    const blocks = Array.isArray(assistant?.content) ? assistant.content : [];
    expect(blocks.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(blocks[0]?.text).toContain('Checking the project too.');
    expect(blocks[0]?.text).toContain('<https://nodejs.org/en/blog/release/v22.0.0>');
    expect(serverTool(toolsOf(1))).toBeDefined();
    const searched = result.stdout
      .split('\n')
      .filter((line) => line.includes('mca_web_search'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(searched).toHaveLength(1);
    expect(searched[0]).toMatchObject({ type: 'system', query: 'node 22 release notes', results: 2 });
  });

  it('without a rule the gate is offered and denied in -p; nothing searches', async () => {
    const result = await run(
      [{ text: '', calls: [{ name: 'WebSearch', input: { query: 'node 22' } }] }, { text: 'could not search' }],
      [],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(toolsOf(0).some((tool) => tool.name === 'WebSearch')).toBe(true);
    expect(serverTool(toolsOf(0))).toBeUndefined();
    expect(serverTool(toolsOf(1))).toBeUndefined();
    const user = api?.requests[1]?.body.messages?.at(-1);
    const results = Array.isArray(user?.content) ? user.content : [];
    expect(JSON.stringify(results)).toMatch(/PERMISSION_DENIED|denied/);
  });

  it("in bypassPermissions the gate's call turns the search on with its domains", async () => {
    const result = await run(
      [
        { text: '', calls: [{ name: 'WebSearch', input: { query: 'node 22', allowed_domains: ['nodejs.org'] } }] },
        { text: 'Node 22 can require() ES modules.', webSearch: SEARCH },
      ],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(serverTool(toolsOf(0))).toBeUndefined();
    expect(serverTool(toolsOf(1))).toMatchObject({ name: 'web_search', allowed_domains: ['nodejs.org'] });
    expect(toolsOf(1).some((tool) => tool.name === 'WebSearch')).toBe(false);
    expect(result.stdout).toContain('Sources:');
  });
});

describe('WebSearch on the OpenAI-compatible provider', () => {
  it('is not offered, and a call is answered in one line', async () => {
    const project = tempProject('mca-websearch-openai-');
    openai = await startFakeOpenAI(
      [
        { text: 'Thought: search\nAction: WebSearch[{"query": "node 22"}]' },
        { text: 'Thought: done\nAction: Finish[no search here]' },
      ],
      { apiKey: KEY },
    );
    const result = await runMca(['-p', 'search', '--permission-mode', 'bypassPermissions'], {
      cwd: project.root,
      env: {
        MCA_PROVIDER: 'openai',
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: KEY,
        MCA_HOME: project.home,
        MCA_TOOL_PROTOCOL: 'native',
        MCA_MODEL: 'gpt-e2e',
      },
    });
    expect(result.code, result.stderr).toBe(0);
    const first = openai.requests[0]?.body as { tools?: Array<{ function?: { name?: string } }> };
    expect((first.tools ?? []).map((tool) => tool.function?.name)).not.toContain('WebSearch');
    expect(openaiUserText(openai.requests[1]!.body)).toContain(
      'WebSearch is not available: the OpenAI-compatible provider has no server-side web search',
    );
  });
});
