import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { MAX_EVENT_CHARS, sseData } from '../../src/providers/sse-data.js';

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('sseData', () => {
  it('joins events split across chunks, skips comments and other fields, handles CRLF and multi-line data', async () => {
    const events = await collect(
      sseData(
        bytes(': keep-alive\r\n\r\nevent: x\r\nda', 'ta: {"a":1}\r', '\n\r\ndata: one\ndata:two\n\n', 'data: [DONE]'),
      ),
    );
    expect(events).toEqual(['{"a":1}', 'one\ntwo', '[DONE]']);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const encoded = new TextEncoder().encode('data: é\n\n');
    async function* split(): AsyncGenerator<Uint8Array> {
      yield encoded.slice(0, 7);
      yield encoded.slice(7);
    }
    expect(await collect(sseData(split()))).toEqual(['é']);
  });

  it('gives up with a server error on an event that never ends, whether one endless line or endless data lines', async () => {
    const piece = 'x'.repeat(64 * 1024);
    const pieces = Math.ceil(MAX_EVENT_CHARS / piece.length) + 2;
    async function* endless(line: (index: number) => string): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('data: fine\n\n');
      for (let index = 0; index < pieces; index++) yield new TextEncoder().encode(line(index));
      throw new Error('the reader should have stopped before the end');
    }
    for (const line of [(index: number) => (index === 0 ? `data: ${piece}` : piece), () => `data: ${piece}\n`]) {
      const seen: string[] = [];
      let caught: unknown;
      try {
        for await (const event of sseData(endless(line))) seen.push(event);
      } catch (error) {
        caught = error;
      }
      expect(seen).toEqual(['fine']);
      expect(caught).toBeInstanceOf(ProviderError);
      expect(caught).toMatchObject({ kind: 'server' });
      expect((caught as ProviderError).message).toBe(
        'The server sent an event over 4 MiB without ending it; the stream was abandoned.',
      );
    }
  });
});
