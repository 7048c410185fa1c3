import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { AnthropicProvider, type AnthropicProviderOptions } from '../../src/providers/anthropic.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelRequest, StreamEvent } from '../../src/providers/types.js';
import {
  requestApiKey,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
} from '../helpers/fake-anthropic-server.js';
import { listenLoopback, type LoopbackServer } from '../helpers/loopback-http.js';

const KEY = 'sk-ant-api03-test-secret-key-0123456789abcdef';

const request: ModelRequest = {
  model: 'claude-test',
  system: [{ text: 'You are mca.', cacheBreakpoint: true }, { text: '# Project Rules (CODE_LAW)\nBe kind.' }],
  user: [
    { text: '[user] earlier', cacheBreakpoint: true },
    { text: 'current input' },
    { text: 'Thought: x', cacheBreakpoint: true },
  ],
  maxTokens: 1000,
  stopSequences: ['\nObservation:'],
};

let server: FakeAnthropic | undefined;
let raw: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  await raw?.close();
  server = undefined;
  raw = undefined;
});

/** A loopback server that answers every request with `answer`: for what the scripted fake never sends. */
async function serveRaw(answer: (res: ServerResponse) => void): Promise<string> {
  raw = await listenLoopback(
    'raw',
    async (_req, res) => answer(res),
    (res) => res.destroy(),
  );
  return `http://127.0.0.1:${raw.port}`;
}

async function setup(script: FakeStep[], options: Partial<AnthropicProviderOptions> = {}): Promise<AnthropicProvider> {
  server = await startFakeAnthropic(script);
  return new AnthropicProvider({
    apiKey: KEY,
    baseUrl: server.url,
    maxRetries: 3,
    streamIdleTimeoutMs: 5_000,
    backoff: { baseDelayMs: 1, random: () => 0 },
    ...options,
  });
}

async function run(
  provider: AnthropicProvider,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ events: StreamEvent[]; error: ProviderError | undefined }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of provider.stream(request, signal)) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

const texts = (events: StreamEvent[]): string[] =>
  events.flatMap((event) => (event.type === 'text' ? [event.text] : []));
const retries = (events: StreamEvent[]): StreamEvent[] => events.filter((event) => event.type === 'retry');

describe('AnthropicProvider (its node:http transport against the loopback fake API)', () => {
  it('streams text in deltas and ends with done carrying all four usage counters', async () => {
    const provider = await setup([
      {
        text: 'Thought: hi\nAction: Finish[ok]',
        chunks: 4,
        usage: { input_tokens: 11, output_tokens: 22, cache_creation_input_tokens: 33, cache_read_input_tokens: 44 },
      },
    ]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(texts(events).length).toBeGreaterThan(1);
    expect(texts(events).join('')).toBe('Thought: hi\nAction: Finish[ok]');
    expect(events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'end_turn',
      usage: { inputTokens: 11, outputTokens: 22, cacheCreationInputTokens: 33, cacheReadInputTokens: 44 },
    });
  });

  it('sends system blocks, one user message, cache_control on breakpoints, max_tokens and the stop sequence', async () => {
    const provider = await setup([{ text: 'ok' }]);
    await run(provider);
    const sent = server?.requests[0];
    expect(sent ? requestApiKey(sent.headers) : undefined).toBe(KEY);
    expect(sent?.body.stream).toBe(true);
    expect(sent?.body.max_tokens).toBe(1000);
    expect(sent?.body.stop_sequences).toEqual(['\nObservation:']);
    expect(sent?.body.system).toEqual([
      { type: 'text', text: 'You are mca.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '# Project Rules (CODE_LAW)\nBe kind.' },
    ]);
    expect(sent?.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[user] earlier', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'current input' },
          { type: 'text', text: 'Thought: x', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('reports stop_sequence when the server cuts at the stop sequence', async () => {
    const provider = await setup([{ text: 'Thought: a\nAction: LS[{}]\nObservation: invented' }]);
    const { events } = await run(provider);
    expect(texts(events).join('')).toBe('Thought: a\nAction: LS[{}]');
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'stop_sequence' });
  });

  it('retries a 529 and yields a retry event before the successful stream', async () => {
    const provider = await setup([{ status: 529, message: 'Overloaded' }, { text: 'fine' }]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1 });
    expect(texts(events).join('')).toBe('fine');
    expect(server?.requests).toHaveLength(2);
  });

  it('honours retry-after on 429 (seconds) and retry-after-ms', async () => {
    const provider = await setup(
      [
        { status: 429, headers: { 'retry-after': '0.05' } },
        { status: 429, headers: { 'retry-after-ms': '7' } },
        { text: 'ok' },
      ],
      { backoff: { baseDelayMs: 5_000, random: () => 0 } },
    );
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 50 }),
      expect.objectContaining({ attempt: 2, delayMs: 7 }),
    ]);
  });

  it('backs off exponentially and gives up on repeated 500s with kind server', async () => {
    const provider = await setup(
      [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500, message: 'still broken' }],
      { backoff: { baseDelayMs: 2, random: () => 0 } },
    );
    const { events, error } = await run(provider);
    expect(retries(events).map((event) => (event.type === 'retry' ? event.delayMs : 0))).toEqual([2, 4, 8]);
    expect(error?.kind).toBe('server');
    expect(error?.status).toBe(500);
    expect(error?.message).toContain('still broken');
    expect(server?.requests).toHaveLength(4);
  });

  it('does not retry a 401; the auth message names the variable and never contains the key', async () => {
    const provider = await setup([{ status: 401, message: `invalid x-api-key ${KEY}` }, { text: 'never' }]);
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(0);
    expect(error?.kind).toBe('auth');
    expect(error?.message).toMatch(/^ANTHROPIC_API_KEY was rejected \(401\): invalid x-api-key/);
    expect(error?.message).not.toContain(KEY);
    expect(error?.message).not.toContain('\n');
    expect(server?.requests).toHaveLength(1);
  });

  it('maps a 400 "prompt is too long" to context_too_long and other 400s to bad_request', async () => {
    const long = await setup([{ status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' }]);
    expect((await run(long)).error?.kind).toBe('context_too_long');
    await server?.close();
    const bad = await setup([{ status: 400, message: 'max_tokens: too large\nsecond line' }]);
    const { error } = await run(bad);
    expect(error?.kind).toBe('bad_request');
    expect(error?.message).toContain('max_tokens: too large second line');
  });

  it('fails with network and no retry when the stream dies after text was yielded', async () => {
    const provider = await setup([{ disconnect: true, text: 'half an ans' }, { text: 'never' }]);
    const { events, error } = await run(provider);
    expect(texts(events).join('')).toBe('half an ans');
    expect(error?.kind).toBe('network');
    expect(retries(events)).toHaveLength(0);
    expect(server?.requests).toHaveLength(1);
  });

  it('retries a stream that dies before any text', async () => {
    const provider = await setup([{ disconnect: true, text: '' }, { text: 'second try' }]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)).toHaveLength(1);
    expect(texts(events).join('')).toBe('second try');
  });

  it('maps an SSE error event (overloaded mid-stream, no text yet) to overloaded and retries it', async () => {
    const provider = await setup([
      { streamError: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'ok' },
    ]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)[0]).toMatchObject({ reason: expect.stringContaining('overloaded') });
  });

  it('times out a stalled stream after the idle timeout and retries it', async () => {
    const provider = await setup([{ hang: 'headers' }, { hang: true }, { text: 'finally' }], {
      streamIdleTimeoutMs: 400,
    });
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)).toHaveLength(2);
    expect(texts(events).join('')).toBe('finally');
  });

  it('gives up with kind timeout when every attempt stalls', async () => {
    const provider = await setup([{ hang: true }, { hang: true }], { streamIdleTimeoutMs: 100, maxRetries: 1 });
    const { error } = await run(provider);
    expect(error?.kind).toBe('timeout');
  });

  it('a stall after text fails with timeout and no retry', async () => {
    const provider = await setup([{ hang: 'text', text: 'some text' }, { text: 'never' }], {
      streamIdleTimeoutMs: 300,
    });
    const { events, error } = await run(provider);
    expect(texts(events).join('')).toBe('some text');
    expect(error?.kind).toBe('timeout');
    expect(server?.requests).toHaveLength(1);
  });

  it('aborts mid-stream promptly with kind aborted and no retry', async () => {
    const provider = await setup([{ hang: 'text', text: 'streaming…' }, { text: 'never' }], {
      streamIdleTimeoutMs: 60_000,
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of provider.stream(request, controller.signal)) {
        events.push(event);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).kind).toBe('aborted');
    expect(server?.requests).toHaveLength(1);
  });

  it('aborts while waiting for response headers and during a backoff sleep', async () => {
    const hanging = await setup([{ hang: true }], { streamIdleTimeoutMs: 60_000 });
    const first = new AbortController();
    setTimeout(() => first.abort(), 50);
    expect((await run(hanging, first.signal)).error?.kind).toBe('aborted');
    await server?.close();

    const sleeping = await setup([{ status: 503 }, { text: 'never' }], {
      backoff: { baseDelayMs: 20_000, random: () => 0 },
    });
    const second = new AbortController();
    const events: StreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of sleeping.stream(request, second.signal)) {
        events.push(event);
        if (event.type === 'retry') second.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([expect.objectContaining({ type: 'retry', delayMs: 20_000 })]);
    expect((caught as ProviderError).kind).toBe('aborted');
  });

  it('fails with network when nothing listens at the base URL', async () => {
    const probe = await startFakeAnthropic([]);
    const url = probe.url;
    await probe.close();
    const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: url, maxRetries: 1, backoff: { baseDelayMs: 1 } });
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(1);
    expect(error?.kind).toBe('network');
    expect(error?.message).not.toContain(KEY);
  });
  it('reuses one connection for consecutive requests, including after a failed one', async () => {
    const provider = await setup([{ text: 'one' }, { status: 529 }, { text: 'two' }, { text: 'three' }]);
    expect(texts((await run(provider)).events).join('')).toBe('one');
    expect(texts((await run(provider)).events).join('')).toBe('two');
    expect(texts((await run(provider)).events).join('')).toBe('three');
    expect(server?.requests).toHaveLength(4);
    expect(server?.connections()).toBe(1);
  });

  it('skips ping events and reports a malformed event as one server error line', async () => {
    const url = await serveRaw((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: ping\ndata: {"type":"ping"}\n\nevent: message_start\ndata: {not json\n\n');
    });
    const { error } = await run(new AnthropicProvider({ apiKey: KEY, baseUrl: url, maxRetries: 0 }));
    expect(error?.kind).toBe('server');
    expect(error?.message).toBe(`The Anthropic API at ${url} sent a malformed event.`);
  });

  it('a base URL that redirects (301) fails at once with one not_api line naming the Location', async () => {
    const url = await serveRaw((res) => {
      res.writeHead(301, { location: 'https://api.example.com/v1/messages' });
      res.end();
    });
    const { events, error } = await run(new AnthropicProvider({ apiKey: KEY, baseUrl: url, maxRetries: 3 }));
    expect(retries(events)).toHaveLength(0);
    expect(error?.kind).toBe('not_api');
    expect(error?.message).toBe(
      `The Anthropic API at ${url} redirected (301) to https://api.example.com/v1/messages; set ANTHROPIC_BASE_URL to the address it should use.`,
    );
  });
  it('a base URL without its scheme fails at once with one bad_request line naming the variable', async () => {
    const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: 'localhost:8080', maxRetries: 3 });
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(0);
    expect(error?.kind).toBe('bad_request');
    expect(error?.message).toBe(
      'The Anthropic API URL localhost:8080/v1/messages is not an http:// or https:// URL; write ANTHROPIC_BASE_URL with its scheme.',
    );
  });
});
