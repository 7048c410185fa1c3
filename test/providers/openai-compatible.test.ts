import { afterEach, describe, expect, it } from 'vitest';
import {
  OpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from '../../src/providers/openai-compatible.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIStep } from '../helpers/fake-openai-server.js';
import { listenLoopback } from '../helpers/loopback-http.js';

const KEY = 'sk-proj-test-secret-key-0123456789abcdefXYZ';

const request: ModelRequest = {
  model: 'gpt-test',
  system: [{ text: 'You are mca.', cacheBreakpoint: true }, { text: '# Project Rules (CODE_LAW)\nBe kind.' }],
  user: [{ text: '[user] earlier', cacheBreakpoint: true }, { text: '' }, { text: 'current input' }],
  maxTokens: 1000,
  stopSequences: ['\nObservation:'],
};

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: FakeOpenAIStep[],
  options: Partial<OpenAICompatibleProviderOptions> = {},
): Promise<OpenAICompatibleProvider> {
  server = await startFakeOpenAI(script, { apiKey: KEY });
  return new OpenAICompatibleProvider({
    apiKey: KEY,
    baseUrl: server.url,
    maxRetries: 3,
    streamIdleTimeoutMs: 5_000,
    backoff: { baseDelayMs: 1, random: () => 0 },
    ...options,
  });
}

async function run(
  provider: OpenAICompatibleProvider,
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

describe('OpenAICompatibleProvider against the loopback fake API', () => {
  it('streams text in deltas and ends with done; cached prompt tokens are split out of the input count', async () => {
    const provider = await setup([
      {
        text: 'Thought: hi\nAction: Finish[ok]',
        chunks: 4,
        usage: { prompt_tokens: 1_000, completion_tokens: 22, cached_tokens: 800 },
      },
    ]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(texts(events).length).toBeGreaterThan(1);
    expect(texts(events).join('')).toBe('Thought: hi\nAction: Finish[ok]');
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
    expect(events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'end_turn',
      usage: { inputTokens: 200, outputTokens: 22, cacheCreationInputTokens: 0, cacheReadInputTokens: 800 },
    });
  });

  it('sends the bearer key, stream options, max_tokens, stop and one system plus one user message', async () => {
    const provider = await setup([{ text: 'ok' }]);
    await run(provider);
    const sent = server?.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 1000,
      stop: ['\nObservation:'],
      messages: [
        { role: 'system', content: 'You are mca.\n\n# Project Rules (CODE_LAW)\nBe kind.' },
        { role: 'user', content: '[user] earlier\n\ncurrent input' },
      ],
    });
  });

  it('passes the stop sequence: the server cuts the invented observation off', async () => {
    const provider = await setup([{ text: 'Thought: a\nAction: LS[{}]\nObservation: invented' }]);
    const { events } = await run(provider);
    expect(texts(events).join('')).toBe('Thought: a\nAction: LS[{}]');
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn' });
  });

  it('maps finish_reason length to max_tokens and estimates usage when the server sends none', async () => {
    const provider = await setup([{ text: 'abcdef', finishReason: 'length', omitUsage: true }]);
    const { events } = await run(provider);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', stopReason: 'max_tokens' });
    if (done?.type !== 'done') throw new Error('no done event');
    expect(done.usage.outputTokens).toBe(2);
    expect(done.usage.inputTokens).toBeGreaterThan(10);
  });

  it('retries a 429, honouring retry-after, and yields a retry event before the successful stream', async () => {
    const provider = await setup(
      [{ status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '7' } }, { text: 'fine' }],
      { backoff: { baseDelayMs: 5_000, random: () => 0 } },
    );
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 7 });
    expect(texts(events).join('')).toBe('fine');
    expect(server?.requests).toHaveLength(2);
  });

  it('gives up on repeated 5xx with kind server after exponential backoff', async () => {
    const provider = await setup([{ status: 502 }, { status: 503 }, { status: 500, message: 'still broken' }], {
      maxRetries: 2,
      backoff: { baseDelayMs: 2, random: () => 0 },
    });
    const { events, error } = await run(provider);
    expect(retries(events).map((event) => (event.type === 'retry' ? event.delayMs : 0))).toEqual([2, 4]);
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(error?.message).toContain('still broken');
  });

  it('does not retry a 401; the auth message names OPENAI_API_KEY, is one line and never contains the key', async () => {
    const provider = await setup([{ status: 401, message: `Incorrect API key provided: ${KEY}\nsee docs` }]);
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(0);
    expect(error?.kind).toBe('auth');
    expect(error?.message).toMatch(/^OPENAI_API_KEY was rejected \(401\): Incorrect API key provided/);
    expect(error?.message).not.toContain(KEY);
    expect(error?.message).not.toContain('\n');
    expect(server?.requests).toHaveLength(1);
  });

  it('refuses a wrong key with auth and never echoes it', async () => {
    server = await startFakeOpenAI([{ text: 'never' }], { apiKey: KEY });
    const wrong = 'sk-wrong-key-that-is-long-enough-0123';
    const provider = new OpenAICompatibleProvider({ apiKey: wrong, baseUrl: server.url, maxRetries: 2 });
    const { error } = await run(provider);
    expect(error?.kind).toBe('auth');
    expect(error?.message).not.toContain(wrong);
  });

  it('maps a 400 about context length to context_too_long, an exhausted quota and other 400s to bad_request', async () => {
    const long = await setup([
      {
        status: 400,
        code: 'context_length_exceeded',
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      },
    ]);
    expect((await run(long)).error?.kind).toBe('context_too_long');
    await server?.close();
    const quota = await setup([{ status: 429, code: 'insufficient_quota', message: 'You exceeded your quota.' }]);
    const quotaRun = await run(quota);
    expect(quotaRun.error?.kind).toBe('bad_request');
    expect(retries(quotaRun.events)).toHaveLength(0);
    await server?.close();
    const bad = await setup([{ status: 400, message: 'Unsupported parameter: temperature' }]);
    expect((await run(bad)).error).toMatchObject({ kind: 'bad_request', status: 400 });
  });

  it('explains a 404 as a base URL without its version path', async () => {
    server = await startFakeOpenAI([{ text: 'never' }]);
    const provider = new OpenAICompatibleProvider({ apiKey: KEY, baseUrl: server.url.replace(/\/v1$/, '') });
    const { error } = await run(provider);
    expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(error?.message).toContain('OPENAI_BASE_URL');
  });

  it('fails with network and no retry when the stream dies after text was yielded', async () => {
    const provider = await setup([{ disconnect: true, text: 'half an ans' }, { text: 'never' }]);
    const { events, error } = await run(provider);
    expect(texts(events).join('')).toBe('half an ans');
    expect(error?.kind).toBe('network');
    expect(retries(events)).toHaveLength(0);
    expect(server?.requests).toHaveLength(1);
  });

  it('fails with network when the stream closes cleanly before any finish_reason or [DONE]', async () => {
    const provider = await setup([{ disconnect: 'clean', text: 'cut short' }]);
    const { events, error } = await run(provider);
    expect(texts(events).join('')).toBe('cut short');
    expect(error?.kind).toBe('network');
    expect(error?.message).toMatch(/ended before the response was complete/);
  });

  it('retries a stream that dies before any text', async () => {
    const provider = await setup([{ disconnect: true, text: '' }, { text: 'second try' }]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)).toHaveLength(1);
    expect(texts(events).join('')).toBe('second try');
  });

  it('maps an error chunk inside the stream by its code and retries it when nothing was shown yet', async () => {
    const provider = await setup([{ streamError: { message: 'Upstream overloaded', code: 502 } }, { text: 'ok' }]);
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)[0]).toMatchObject({ reason: expect.stringContaining('Upstream overloaded') });
    await server?.close();
    const long = await setup([{ streamError: { message: 'too long', code: 'context_length_exceeded' } }]);
    expect((await run(long)).error?.kind).toBe('context_too_long');
  });

  it('times out a stalled stream after the idle timeout and retries it', async () => {
    const provider = await setup([{ hang: 'headers' }, { hang: true }, { text: 'finally' }], {
      streamIdleTimeoutMs: 300,
    });
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(retries(events)).toHaveLength(2);
    expect(texts(events).join('')).toBe('finally');
  });

  it('a stall after text fails with timeout and no retry', async () => {
    const provider = await setup([{ hang: 'text', text: 'some text' }, { text: 'never' }], {
      streamIdleTimeoutMs: 300,
    });
    const { events, error } = await run(provider);
    expect(texts(events).join('')).toBe('some text');
    expect(error?.kind).toBe('timeout');
    expect(error?.message).toMatch(/sent nothing for 0.3s/);
    expect(server?.requests).toHaveLength(1);
  });

  it('aborts mid-stream with kind aborted and no retry', async () => {
    const provider = await setup([{ hang: 'text', text: 'streaming…' }, { text: 'never' }], {
      streamIdleTimeoutMs: 60_000,
    });
    const controller = new AbortController();
    let caught: unknown;
    try {
      for await (const event of provider.stream(request, controller.signal)) {
        if (event.type === 'text') controller.abort();
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

  it('fails with network naming the endpoint when nothing listens there', async () => {
    const probe = await startFakeOpenAI([]);
    const url = probe.url;
    await probe.close();
    const provider = new OpenAICompatibleProvider({
      apiKey: KEY,
      baseUrl: url,
      maxRetries: 1,
      backoff: { baseDelayMs: 1 },
    });
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(1);
    expect(error?.kind).toBe('network');
    expect(error?.message).toContain(url);
    expect(error?.message).not.toContain(KEY);
  });
  it('reuses one connection for consecutive requests although it stops reading at [DONE]', async () => {
    const provider = await setup([{ text: 'one' }, { status: 503 }, { text: 'two' }]);
    expect(texts((await run(provider)).events).join('')).toBe('one');
    // The rest of the body (the end of the chunked stream) is read in the background; one turn of the event loop,
    // as any tool run between two steps gives, lets the connection go back to the pool.
    await new Promise((resolve) => setImmediate(resolve));
    expect(texts((await run(provider)).events).join('')).toBe('two');
    expect(server?.requests).toHaveLength(3);
    expect(server?.connections()).toBe(1);
  });

  it('a base URL that redirects (302) fails at once with one not_api line naming the Location', async () => {
    const moved = await listenLoopback(
      'moved',
      async (_req, res) => {
        res.writeHead(302, { location: '/login' });
        res.end();
      },
      (res) => res.destroy(),
    );
    try {
      const base = `http://127.0.0.1:${moved.port}/v1`;
      const { events, error } = await run(new OpenAICompatibleProvider({ apiKey: KEY, baseUrl: base, maxRetries: 3 }));
      expect(retries(events)).toHaveLength(0);
      expect(error?.kind).toBe('not_api');
      expect(error?.message).toBe(
        `The OpenAI-compatible API at ${base} redirected (302) to http://127.0.0.1:${moved.port}/login; set OPENAI_BASE_URL to the address it should use.`,
      );
    } finally {
      await moved.close();
    }
  });
  it('a base URL without its scheme fails at once with one bad_request line naming the variable', async () => {
    const provider = new OpenAICompatibleProvider({ apiKey: KEY, baseUrl: 'localhost:11434/v1', maxRetries: 3 });
    const { events, error } = await run(provider);
    expect(retries(events)).toHaveLength(0);
    expect(error?.kind).toBe('bad_request');
    expect(error?.message).toBe(
      'The OpenAI-compatible API URL localhost:11434/v1/chat/completions is not an http:// or https:// URL; write OPENAI_BASE_URL with its scheme.',
    );
  });
});
