/**
 * A minimal Server-Sent Events reader: yields the `data` payload of each event, multi-line data joined
 * with "\n". Comments (`: keep-alive`, sent by some proxies) and other fields are skipped. Handles CRLF,
 * CR and LF line ends and events split across network chunks. An event that grows past MAX_EVENT_CHARS
 * (a server sending bytes without ever ending a line or an event) throws a 'server' ProviderError instead
 * of filling memory.
 */
import { ProviderError } from './provider-error.js';

/** Far above any real event (a delta, or a whole answer sent at once), far below trouble. */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let dataChars = 0;
  const takeLines = function* (final: boolean): Generator<string> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone CR at the very end may be the first half of a CRLF split across chunks.
      if (!match || (!final && match[0] === '\r' && match.index === buffer.length - 1)) return;
      yield buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
    }
  };
  const onLine = (line: string): string | undefined => {
    if (line === '') {
      const event = data.length > 0 ? data.join('\n') : undefined;
      data = [];
      dataChars = 0;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return undefined;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
    dataChars += value.length;
    return undefined;
  };
  const checkSize = (): void => {
    if (buffer.length + dataChars > MAX_EVENT_CHARS) {
      throw new ProviderError(
        'server',
        `The server sent an event over ${MAX_EVENT_CHARS / 1024 / 1024} MiB without ending it; the stream was abandoned.`,
      );
    }
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of takeLines(false)) {
      const event = onLine(line);
      if (event !== undefined) yield event;
    }
    checkSize();
  }
  buffer += decoder.decode();
  for (const line of takeLines(true)) {
    const event = onLine(line);
    if (event !== undefined) yield event;
  }
  // A stream that ends without the final blank line still delivers its last event.
  if (buffer !== '') onLine(buffer);
  const last = onLine('');
  if (last !== undefined) yield last;
}
