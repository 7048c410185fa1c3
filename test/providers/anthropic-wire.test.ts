/**
 * The Anthropic provider builds its requests itself (no SDK at run time); the SDK, a dev dependency, stays the
 * source of truth. Both send the same request to the loopback fake API here, and the test compares what arrived:
 * the body, the API version and, for a token (ANTHROPIC_AUTH_TOKEN), the credential header. An SDK upgrade that
 * changes them fails this test. The API key is the one deliberate difference: mca sends it as `x-api-key`, the
 * header the API documents and Claude Code sends (gateways set up for Claude Code expect it), while SDK 1.x sends
 * an `apiKey` as `Authorization: Bearer`; the API accepts both.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { toMessageParams } from '../../src/providers/anthropic-request.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';

const KEY = 'sk-ant-api03-wire-test-0123456789abcdef';

const request: ModelRequest = {
  model: 'claude-wire',
  system: [{ text: 'You are mca.', cacheBreakpoint: true }, { text: 'Rules: ü “quotes” \u2028 and emoji 🚀' }],
  user: [{ text: 'earlier', cacheBreakpoint: true }, { text: 'now' }],
  tools: [{ name: 'Read', description: 'Reads a file.', inputSchema: { properties: { path: { type: 'string' } } } }],
  turn: [
    { role: 'assistant', text: 'Reading.', calls: [{ id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] },
    { role: 'user', results: [{ id: 'toolu_1', content: 'x = 1', isError: false }], cacheBreakpoint: true },
  ],
  tail: [{ text: 'todo recap' }],
  thinkingBudget: 2048,
  maxTokens: 4096,
  stopSequences: ['\nObservation:'],
  temperature: 0.2,
};

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the Anthropic request on the wire', () => {
  it('carries the same body, API version and key header as the SDK sends', async () => {
    server = await startFakeAnthropic([{ text: 'from the SDK' }, { text: 'from mca' }]);
    const sdk = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0, logLevel: 'off' });
    const stream = await sdk.messages.create(toMessageParams(request));
    for await (const event of stream) void event;

    const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: `${server.url}/`, maxRetries: 0 });
    let text = '';
    for await (const event of provider.stream(request, new AbortController().signal)) {
      if (event.type === 'text') text += event.text;
    }
    expect(text).toBe('from mca');

    const [fromSdk, fromMca] = server.requests;
    expect(fromMca?.path).toBe('/v1/messages');
    expect(fromMca?.method).toBe('POST');
    expect(fromMca?.body).toEqual(fromSdk?.body);
    expect(fromMca?.headers['anthropic-version']).toBe(fromSdk?.headers['anthropic-version']);
    // The key: x-api-key, and no bearer header (see the file's comment for why this differs from SDK 1.x).
    expect(fromMca?.headers['x-api-key']).toBe(KEY);
    expect(fromMca?.headers.authorization).toBeUndefined();
    expect(fromMca?.headers['content-type']).toBe('application/json');
    // The SDK's own bookkeeping headers are not sent; the beta header is neither used by the SDK call nor by mca.
    expect(fromMca?.headers['anthropic-beta']).toBeUndefined();
    expect(fromSdk?.headers['anthropic-beta']).toBeUndefined();
  });

  it('sends a token (ANTHROPIC_AUTH_TOKEN) as the SDK sends an authToken: Authorization: Bearer', async () => {
    server = await startFakeAnthropic([{ text: 'from the SDK' }, { text: 'from mca' }]);
    const sdk = new Anthropic({ authToken: KEY, apiKey: null, baseURL: server.url, maxRetries: 0, logLevel: 'off' });
    const stream = await sdk.messages.create(toMessageParams(request));
    for await (const event of stream) void event;
    const provider = new AnthropicProvider({ authToken: KEY, baseUrl: server.url, maxRetries: 0 });
    for await (const event of provider.stream(request, new AbortController().signal)) void event;
    const [fromSdk, fromMca] = server.requests;
    expect(fromSdk?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fromMca?.headers.authorization).toBe(fromSdk?.headers.authorization);
    expect(fromMca?.headers['x-api-key']).toBe(fromSdk?.headers['x-api-key']);
    expect(fromMca?.body).toEqual(fromSdk?.body);
  });
});
