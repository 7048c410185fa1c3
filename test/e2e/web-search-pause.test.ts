/**
 * WebSearch edge cases through the built binary in -p against the loopback fake Anthropic API (native tool use):
 * a turn the API pauses (`pause_turn`) is continued with the paused content sent back unchanged, up to a bound
 * (in count and size) after which the reply ends with a line saying so; the gate's domain lists reach the server
 * tool's definition and are validated (both lists at once, a URL instead of a domain: one INVALID_PARAM line the
 * model reads); hostile search results (thousands of them, huge titles, escape sequences) reach the terminal bounded
 * and without control characters; on the text protocol a WebSearch call is answered in one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-websearch-pause-0123456789';
let api: FakeAnthropic | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

const SEARCH = {
  query: 'node 22 release notes',
  results: [{ title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0' }],
};

async function run(script: FakeStep[], args: string[], protocol = 'native') {
  const project = tempProject('mca-websearch-pause-', { 'main.txt': 'main\n' });
  api = await startFakeAnthropic(script);
  return runMca(['-p', 'what is new in node 22?', ...args], {
    cwd: project.root,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
      MCA_HOME: project.home,
      HOME: project.home,
      MCA_TOOL_PROTOCOL: protocol,
    },
    timeoutMs: 60_000,
  });
}

type Block = { type: string; text?: string; id?: string; tool_use_id?: string; input?: unknown; content?: unknown };
function messagesOf(index: number): Array<{ role: string; content: Block[] | string }> {
  return (api?.requests[index]?.body.messages ?? []) as Array<{ role: string; content: Block[] | string }>;
}
type Tool = { name?: string; type?: string; allowed_domains?: string[]; blocked_domains?: string[] };
const serverTool = (index: number) =>
  ((api?.requests[index]?.body.tools ?? []) as Tool[]).find((tool) => tool.type === 'web_search_20250305');

const ALLOW = ['--allowedTools', 'WebSearch'];

describe('a paused search turn (pause_turn)', () => {
  it('is continued with the paused content as the last assistant message; the whole answer reaches stdout', async () => {
    const result = await run(
      [
        { text: 'Searching first.', webSearch: SEARCH, stopReason: 'pause_turn' },
        {
          text: 'Node 22 can require() ES modules.',
          webSearch: { ...SEARCH, cited: [{ ...SEARCH.results[0]!, text: 'require(esm)' }] },
        },
      ],
      ALLOW,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api?.requests).toHaveLength(2);
    const first = messagesOf(0);
    const second = messagesOf(1);
    // The same request, plus the paused reply as it came.
    expect(second.slice(0, -1)).toEqual(first);
    const paused = second.at(-1);
    expect(paused?.role).toBe('assistant');
    const blocks = paused?.content as Block[];
    expect(blocks.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result']);
    expect(blocks[0]?.text).toBe('Searching first.');
    expect(blocks[1]?.input).toEqual({ query: 'node 22 release notes' });
    expect(blocks[2]?.tool_use_id).toBe(blocks[1]?.id);
    expect(blocks[2]?.content).toEqual([
      { type: 'web_search_result', encrypted_content: 'enc', page_age: null, ...SEARCH.results[0] },
    ]);
    expect(serverTool(1)).toBeDefined();
    expect(result.stdout).toContain('Searching first.Node 22 can require() ES modules.');
    expect(result.stdout).toContain('Sources:\n- Node.js 22 is out <https://nodejs.org/en/blog/release/v22.0.0>');
    expect(result.stdout.match(/Sources:/g)).toHaveLength(1);
    expect(result.stderr.match(/searched: node 22 release notes/g)).toHaveLength(2);
  });

  it('a second pause sends both paused parts, in order, in one assistant message', async () => {
    const result = await run(
      [
        { text: 'One.', webSearch: SEARCH, stopReason: 'pause_turn' },
        { text: 'Two.', webSearch: { ...SEARCH, query: 'node 22 esm' }, stopReason: 'pause_turn' },
        { text: 'Three.' },
      ],
      ALLOW,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api?.requests).toHaveLength(3);
    const last = messagesOf(2).at(-1)?.content as Block[];
    expect(last.map((block) => block.text ?? block.type)).toEqual([
      'One.',
      'server_tool_use',
      'web_search_tool_result',
      'Two.',
      'server_tool_use',
      'web_search_tool_result',
    ]);
    expect(result.stdout).toContain('One.Two.Three.');
  });

  it('stops after the bound with a line saying so (six requests, not more)', async () => {
    const pause: FakeStep = { text: 'Still searching. ', webSearch: SEARCH, stopReason: 'pause_turn' };
    const result = await run([pause, pause, pause, pause, pause, pause, pause, pause, { text: 'never' }], ALLOW);
    expect(result.code, result.stderr).toBe(0);
    expect(api?.requests).toHaveLength(6);
    expect(result.stdout).toContain('mca stopped continuing this reply: the API paused it 6 times');
    expect(result.stdout).not.toContain('never');
  });

  it('stops when the paused content grows past its cap', async () => {
    const huge = (n: number) => ({
      ...SEARCH,
      results: [{ ...SEARCH.results[0]!, encrypted_content: String(n).repeat(3 * 1024 * 1024) }],
    });
    const pause = (n: number): FakeStep => ({ text: `part ${n}. `, webSearch: huge(n), stopReason: 'pause_turn' });
    const result = await run([pause(1), pause(2), pause(3), pause(4), { text: 'never' }], ALLOW);
    expect(result.code, result.stderr).toBe(0);
    expect(api?.requests).toHaveLength(3);
    expect(result.stdout).toContain('mca stopped continuing this reply: the paused content passed 8 MiB');
  }, 120_000);
});

describe("the gate's domain lists", () => {
  it('blocked_domains reach the server tool (normalized), and nothing else', async () => {
    const result = await run(
      [
        { text: '', calls: [{ name: 'WebSearch', input: { query: 'node', blocked_domains: [' Pinterest.COM '] } }] },
        { text: 'ok' },
      ],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(serverTool(1)).toEqual({
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 5,
      blocked_domains: ['pinterest.com'],
    });
  });

  it.each([
    [{ allowed_domains: ['nodejs.org'], blocked_domains: ['example.com'] }, 'cannot both be set'],
    [{ allowed_domains: ['https://nodejs.org/en'] }, 'is not a domain name'],
  ])('a bad list %j is one INVALID_PARAM line the model reads; the search stays off', async (lists, message) => {
    const result = await run(
      [{ text: '', calls: [{ name: 'WebSearch', input: { query: 'node', ...lists } }] }, { text: 'ok' }],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(serverTool(1)).toBeUndefined();
    const results = JSON.stringify(messagesOf(1).at(-1)?.content);
    expect(results).toContain('INVALID_PARAM');
    expect(results).toContain(message);
  });
});

describe('hostile search results', () => {
  it('are bounded and carry no control characters to the terminal', async () => {
    const title = `\u001b]0;pwned\u0007\u001b[2J\u009b31mRED ${'T'.repeat(100_000)}`;
    const url = 'https://evil.example/\u001b[1mbold';
    const many = Array.from({ length: 5_000 }, (_, n) => ({ title: `r${n} \u001b[5m`, url: `https://x.example/${n}` }));
    const result = await run(
      [
        {
          text: 'Answer.',
          webSearch: {
            query: `\u001b[31m${'q'.repeat(10_000)}`,
            results: [{ title, url }, ...many],
            cited: [{ title, url, text: 'x' }],
          },
        },
      ],
      ALLOW,
    );
    expect(result.code, result.stderr).toBe(0);
    for (const output of [result.stdout, result.stderr]) {
      // eslint-disable-next-line no-control-regex -- the point is that none reach the terminal
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    const line = result.stderr.split('\n').find((text) => text.includes('searched:')) ?? '';
    expect(line).toContain('(50 results)');
    expect(line.length).toBeLessThan(700);
    const cited = result.stdout.split('\n').find((text) => text.includes('evil.example')) ?? '';
    expect(cited).toContain(']0;pwned');
    expect(cited.length).toBeLessThan(400);
  }, 120_000);
});

describe('where no server search exists', () => {
  it('the Anthropic provider on the text protocol answers a WebSearch call in one clear line', async () => {
    const result = await run(
      [
        { text: 'Thought: search\nAction: WebSearch[{"query": "node 22"}]' },
        { text: 'Thought: done\nAction: Finish[no search here]' },
      ],
      ['--permission-mode', 'bypassPermissions'],
      'text',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api?.requests[0]?.body.tools).toBeUndefined();
    expect(userText(api!.requests[1]!.body)).toContain(
      'WebSearch is not available with the text tool protocol: the server-side search needs native tool use',
    );
    expect(result.stdout).toContain('no search here');
  });
});
