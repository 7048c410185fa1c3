/**
 * The client's stdin as the SDK's NDJSON input, one message per line of at most `maxBytes`: a client (or whatever
 * wrote to mca's stdin) that sends an endless line costs one log line, not mca's memory; the messages after it
 * still arrive. The SDK's own reader would buffer such a line without bound.
 */
import type { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { LineReader, readLines } from '../text/line-reader.js';

/** The largest message mca takes from a client (a prompt with images or a large embedded selection fits). */
export const CLIENT_LINE_MAX_BYTES = 64 * 1024 * 1024;

export function boundedInput(
  source: Readable,
  log: (line: string) => void,
  maxBytes = CLIENT_LINE_MAX_BYTES,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      readLines(source, new LineReader(maxBytes, 'the client'), {
        line: (text) => controller.enqueue(Buffer.from(`${text}\n`)),
        tooLong: (error) => log(`ignored a message: ${error.message}`),
        end: () => controller.close(),
      });
    },
  });
}
