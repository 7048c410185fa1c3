/**
 * A minimal Server-Sent Events reader: yields the `data` payload of each event, multi-line data joined
 * with "\n". Comments (`: keep-alive`, sent by some proxies) and other fields are skipped. Handles CRLF,
 * CR and LF line ends and events split across network chunks.
 */

export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
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
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return undefined;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of takeLines(false)) {
      const event = onLine(line);
      if (event !== undefined) yield event;
    }
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
