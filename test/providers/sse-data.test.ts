import { describe, expect, it } from 'vitest';
import { sseData } from '../../src/providers/sse-data.js';

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
});
