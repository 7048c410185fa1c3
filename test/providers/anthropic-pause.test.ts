/**
 * The Anthropic provider continuing a paused turn (`pause_turn`) against the loopback fake API: to its caller the
 * parts are one reply (text in order, one `done` with every request's usage added up), a failed continuation
 * request is retried without a `retry` event (that would make the agent drop the paused text already shown), and a
 * thinking block's signature goes back with the paused content.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import type { ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: ModelRequest = {
  model: 'claude-test',
  system: [{ text: 'You are mca.' }],
  user: [{ text: 'what is new in node 22?' }],
  tools: [],
  webSearch: { maxUses: 5 },
  maxTokens: 1000,
};
const SEARCH = { query: 'node 22', results: [{ title: 'Node 22', url: 'https://nodejs.org/' }] };

async function stream(script: FakeStep[]): Promise<StreamEvent[]> {
  server = await startFakeAnthropic(script);
  const provider = new AnthropicProvider({
    apiKey: 'sk-ant-test-pause',
    baseUrl: server.url,
    maxRetries: 2,
    backoff: { baseDelayMs: 1, random: () => 0 },
  });
  const events: StreamEvent[] = [];
  for await (const event of provider.stream(request, new AbortController().signal)) events.push(event);
  return events;
}

const text = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

describe('AnthropicProvider: a paused turn', () => {
  it('is one reply: the parts in order, one done with the usage of both requests', async () => {
    const events = await stream([
      { text: 'First. ', webSearch: SEARCH, stopReason: 'pause_turn', usage: { input_tokens: 100, output_tokens: 7 } },
      { text: 'Second.', usage: { input_tokens: 150, output_tokens: 5, cache_read_input_tokens: 90 } },
    ]);
    expect(text(events)).toBe('First. Second.');
    const done = events.filter((event) => event.type === 'done');
    expect(done).toEqual([
      {
        type: 'done',
        stopReason: 'end_turn',
        // The counters add both requests (cost); the context size is the last request's: 150 + 90 + 5.
        usage: {
          inputTokens: 250,
          outputTokens: 12,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 90,
          windowTokens: 245,
        },
      },
    ]);
    expect(events.filter((event) => event.type === 'web_search')).toHaveLength(1);
  });

  it('a continuation that fails is retried without a retry event; the paused text stands', async () => {
    const events = await stream([
      { text: 'First. ', webSearch: SEARCH, stopReason: 'pause_turn' },
      { status: 529 },
      { text: 'Second.' },
    ]);
    expect(server?.requests).toHaveLength(3);
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    expect(text(events)).toBe('First. Second.');
    const resent = server?.requests[2]?.body.messages?.at(-1);
    expect(resent?.role).toBe('assistant');
  });

  it("sends the blocks back in index order (the stream's content order), a thinking block with its signature", async () => {
    await stream([
      {
        text: 'Looking.',
        thinking: { text: 'I should search.', signature: 'sig-123' },
        webSearch: SEARCH,
        stopReason: 'pause_turn',
      },
      { text: 'Done.' },
    ]);
    const content = server?.requests[1]?.body.messages?.at(-1)?.content;
    // The fake streams text at index 0, the search at 50 and 51, thinking at 100.
    expect(Array.isArray(content) ? content.map((block) => block.type) : []).toEqual([
      'text',
      'server_tool_use',
      'web_search_tool_result',
      'thinking',
    ]);
    expect(JSON.stringify(content)).toContain('"thinking":"I should search.","signature":"sig-123"');
  });

  it('a single paused part past the size cap is not continued (and not kept)', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const events = await stream([{ text: big, chunks: 3, stopReason: 'pause_turn' }, { text: 'never' }]);
    expect(server?.requests).toHaveLength(1);
    const all = text(events);
    expect(
      all.endsWith(
        '(mca stopped continuing this reply: the paused content passed 8 MiB. Ask again to go on from here.)',
      ),
    ).toBe(true);
    expect(all).not.toContain('never');
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'other' });
  });
});
