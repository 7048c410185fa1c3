/**
 * The apiKeyHelper wrapper: a call rejected as unauthorised is sent once more with a freshly fetched key; a second
 * rejection is the normal error, and calls failing together share one refresh.
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { RefreshedKeyProvider } from '../../src/providers/refreshed-key.js';
import type { ModelProvider, ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { ZERO_USAGE } from '../../src/providers/types.js';

/** A provider that accepts only `good` as its key. */
function keyed(key: string, good: string, calls: string[]): ModelProvider {
  return {
    name: 'anthropic',
    async *stream(): AsyncGenerator<StreamEvent> {
      calls.push(key);
      await Promise.resolve();
      if (key !== good) throw new ProviderError('auth', 'The API rejected the key', { status: 401 });
      yield { type: 'text', text: 'hi' };
      yield { type: 'done', stopReason: 'end_turn', usage: { ...ZERO_USAGE } };
    },
  };
}

async function drain(provider: ModelProvider): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of provider.stream({} as ModelRequest, new AbortController().signal)) events.push(event);
  return events;
}

describe('RefreshedKeyProvider', () => {
  it('refreshes the key once after a 401 and shares the refresh between concurrent calls', async () => {
    const calls: string[] = [];
    let fetched = 0;
    const provider = new RefreshedKeyProvider(keyed('stale', 'fresh', calls), () => {
      fetched += 1;
      return Promise.resolve(keyed('fresh', 'fresh', calls));
    });
    const [one, two] = await Promise.all([drain(provider), drain(provider)]);
    expect(one.map((event) => event.type)).toEqual(['text', 'done']);
    expect(two.map((event) => event.type)).toEqual(['text', 'done']);
    expect(fetched).toBe(1);
    expect(await drain(provider)).toHaveLength(2);
    expect(fetched).toBe(1);
  });

  it('a key that is still rejected after the refresh gives the normal error', async () => {
    const calls: string[] = [];
    const provider = new RefreshedKeyProvider(keyed('a', 'never', calls), () =>
      Promise.resolve(keyed('b', 'never', calls)),
    );
    await expect(drain(provider)).rejects.toThrow('The API rejected the key');
    expect(calls).toEqual(['a', 'b']);
  });
});
