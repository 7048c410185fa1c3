import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, userText, type FakeAnthropic } from './fake-anthropic-server.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const body = (text: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    model: 'm',
    max_tokens: 10,
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    ...extra,
  });

async function post(payload: string, headers: Record<string, string> = {}): Promise<Response> {
  if (!server) throw new Error('no server');
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('fake Anthropic server', () => {
  it('answers non-streaming requests with a message JSON and applies stop sequences', async () => {
    server = await startFakeAnthropic([{ text: 'a STOP b', usage: { input_tokens: 5 } }]);
    const response = await post(body('hi', { stop_sequences: ['STOP'] }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      content: [{ type: 'text', text: 'a ' }],
      stop_reason: 'stop_sequence',
      stop_sequence: 'STOP',
      usage: { input_tokens: 5 },
    });
  });

  it('streams SSE events in API order', async () => {
    server = await startFakeAnthropic([{ text: 'hello' }]);
    const text = await (await post(body('hi', { stream: true }))).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(names[0]).toBe('message_start');
    expect(names.at(-2)).toBe('message_delta');
    expect(names.at(-1)).toBe('message_stop');
    expect(names).toContain('content_block_delta');
  });

  it('records requests, lets function steps read the body, and resets with setScript', async () => {
    server = await startFakeAnthropic([(req) => ({ text: `echo ${userText(req)}` })]);
    expect(await (await post(body('ping'), { 'x-api-key': 'k' })).json()).toMatchObject({
      content: [{ text: 'echo ping' }],
    });
    expect(server.requests[0]?.headers['x-api-key']).toBe('k');
    server.setScript([{ status: 529, headers: { 'retry-after': '1' } }]);
    const overloaded = await post(body('again'));
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers.get('retry-after')).toBe('1');
    expect(await overloaded.json()).toMatchObject({ error: { type: 'overloaded_error' } });
  });

  it('answers 500 with a clear message when the script is exhausted, 404 for other routes, 400 for empty blocks', async () => {
    server = await startFakeAnthropic([]);
    const exhausted = await post(body('x'));
    expect(exhausted.status).toBe(500);
    expect(JSON.stringify(await exhausted.json())).toContain('script exhausted at request 1');
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(404);
    expect((await post(body(''))).status).toBe(400);
  });

  it('rejects a wrong key when configured with one', async () => {
    server = await startFakeAnthropic([{ text: 'ok' }], { apiKey: 'right' });
    expect((await post(body('x'), { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(body('x'), { authorization: 'Bearer right' })).status).toBe(200);
  });

  it('closes cleanly while a request hangs', async () => {
    server = await startFakeAnthropic([{ hang: true }]);
    const pending = post(body('x')).catch((error: unknown) => error);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    server = undefined;
  });
});
