/**
 * The fallback wrapper over the real Anthropic provider against the loopback fake: which failures move a call to
 * the next model (529 after the retries, 404) and which never do (a 429, an error after the reply began, a call for
 * a model outside the chain), and that the `done` usage names the model that answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { FallbackProvider } from '../../src/providers/model-fallback.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';

const KEY = 'sk-ant-api03-test-fallback-0123456789abcdef';
let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function request(model: string): ModelRequest {
  return { model, system: [{ text: 'sys' }], user: [{ text: 'hi' }], maxTokens: 100 };
}

async function setup(script: FakeStep[], modelErrors: Record<string, number> = {}): Promise<FallbackProvider> {
  server = await startFakeAnthropic(script, { modelErrors });
  const inner = new AnthropicProvider({
    apiKey: KEY,
    baseUrl: server.url,
    maxRetries: 1,
    backoff: { baseDelayMs: 1, random: () => 0 },
  });
  return new FallbackProvider(inner, 'main-model', ['second-model', 'third-model']);
}

async function run(provider: FallbackProvider, model = 'main-model') {
  const events: StreamEvent[] = [];
  try {
    for await (const event of provider.stream(request(model), new AbortController().signal)) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

const models = (): Array<string | undefined> => server?.requests.map((entry) => entry.body.model) ?? [];

describe('FallbackProvider', () => {
  it('529 after the retries, then 404: the chain is walked in order and the answer names its model', async () => {
    const provider = await setup([{ text: 'THIRD' }], { 'main-model': 529, 'second-model': 404 });
    const { events, error } = await run(provider);
    expect(error).toBeUndefined();
    expect(models()).toEqual(['main-model', 'main-model', 'second-model', 'third-model']);
    const moves = events.filter((event) => event.type === 'model_fallback');
    expect(moves.map((event) => [event.from, event.to])).toEqual([
      ['main-model', 'second-model'],
      ['second-model', 'third-model'],
    ]);
    const done = events.find((event) => event.type === 'done');
    expect(done?.type === 'done' ? done.usage.model : undefined).toBe('third-model');
  });

  it('the end of the chain fails with the last model’s error', async () => {
    const provider = await setup([], { 'main-model': 529, 'second-model': 529, 'third-model': 529 });
    const { error } = await run(provider);
    expect(error?.kind).toBe('overloaded');
    expect(models()).toEqual([
      'main-model',
      'main-model',
      'second-model',
      'second-model',
      'third-model',
      'third-model',
    ]);
  });

  it('a rate limit (429) never moves the call', async () => {
    const provider = await setup([{ status: 429 }, { status: 429 }, { text: 'unused' }]);
    const { events, error } = await run(provider);
    expect(error?.kind).toBe('rate_limit');
    expect(events.some((event) => event.type === 'model_fallback')).toBe(false);
    expect(models()).toEqual(['main-model', 'main-model']);
  });

  it('an overload after the reply began is not sent elsewhere (the text would be doubled)', async () => {
    const provider = await setup([
      { text: 'PARTIAL', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'unused' },
    ]);
    const { events, error } = await run(provider);
    expect(error?.kind).toBe('overloaded');
    expect(events.some((event) => event.type === 'text')).toBe(true);
    expect(models()).toEqual(['main-model']);
  });

  it('a call for a model outside the chain (a subagent’s own) fails as before', async () => {
    const provider = await setup([], { 'other-model': 529 });
    const { error } = await run(provider, 'other-model');
    expect(error?.kind).toBe('overloaded');
    expect(models()).toEqual(['other-model', 'other-model']);
  });
});
