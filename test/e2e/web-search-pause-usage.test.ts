/**
 * The usage of a paused search turn (`pause_turn`) through the built binary against the loopback fake Anthropic
 * API: the cost adds every request (each is billed), while the context size the next turn's compaction trigger reads
 * is the last request's, not the sum (every request resent the same prompt).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';

const KEY = 'sk-ant-test-websearch-usage-0123456789';
let api: FakeAnthropic | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

const SEARCH = {
  query: 'node 22 release notes',
  results: [{ title: 'Node.js 22 is out', url: 'https://nodejs.org/en/blog/release/v22.0.0' }],
};
/** Each request's usage: 30,050 tokens of context. Three of them add up to 90,150, past the 50,000 threshold. */
const USAGE = { input_tokens: 20_000, cache_read_input_tokens: 10_000, output_tokens: 50 };

interface JsonResult {
  total_cost_usd: number;
  usage: { input_tokens: number; cache_read_input_tokens: number; output_tokens: number };
}

describe('a paused search turn, counted', () => {
  it('costs every request, while the next turn sees the last request as the context size (no early compaction)', async () => {
    const project = tempProject('mca-websearch-usage-', { 'main.txt': 'main\n' });
    const script: FakeStep[] = [
      { text: 'Plain answer.', usage: USAGE },
      { text: 'One.', webSearch: SEARCH, stopReason: 'pause_turn', usage: USAGE },
      { text: 'Two.', webSearch: { ...SEARCH, query: 'node 22 esm' }, stopReason: 'pause_turn', usage: USAGE },
      { text: 'Three.', usage: USAGE },
      { text: 'Third answer.', usage: USAGE },
    ];
    api = await startFakeAnthropic(script);
    const env = {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
      MCA_HOME: project.home,
      HOME: project.home,
      MCA_TOOL_PROTOCOL: 'native',
      MCA_CONTEXT_WINDOW: '100000',
      MCA_COMPRESSION_THRESHOLD: '0.5',
      MCA_MIN_RETAIN_ROUNDS: '1',
    };
    const run = (prompt: string, ...args: string[]) =>
      runMca(['-p', prompt, '--output-format', 'json', ...args], { cwd: project.root, env, timeoutMs: 60_000 });

    const plain = await run('first question');
    expect(plain.code, plain.stderr).toBe(0);
    const one = JSON.parse(plain.stdout) as JsonResult;

    const searched = await run('what is new in node 22?', '-c', '--allowedTools', 'WebSearch');
    expect(searched.code, searched.stderr).toBe(0);
    expect(api.requests).toHaveLength(4);
    const three = JSON.parse(searched.stdout) as JsonResult;
    // The cost adds all three requests of the reply.
    expect(three.usage.input_tokens).toBe(3 * USAGE.input_tokens);
    expect(three.usage.cache_read_input_tokens).toBe(3 * USAGE.cache_read_input_tokens);
    expect(three.usage.output_tokens).toBe(3 * USAGE.output_tokens);
    expect(one.total_cost_usd).toBeGreaterThan(0);
    expect(three.total_cost_usd).toBeCloseTo(3 * one.total_cost_usd, 10);

    // 30,050 (the last request) + the new prompt is under 50,000: no compaction, the next request is the answer's
    // and still carries both earlier questions. Counting the sum (90,150) would have compacted first.
    const third = await run('third question', '-c');
    expect(third.code, third.stderr).toBe(0);
    expect(api.requests).toHaveLength(5);
    const prompt = userText(api.requests[4]!.body);
    expect(prompt).toContain('first question');
    expect(prompt).toContain('what is new in node 22?');
    expect(prompt).not.toMatch(/Archived Session Summary/);
    expect((JSON.parse(third.stdout) as { result: string }).result).toBe('Third answer.');
  });
});
