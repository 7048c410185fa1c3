/**
 * mca's stdout as the SDK's output, with a bound on what the client leaves unread. The SDK queues every message
 * behind the previous write, and Node's stdout keeps whatever a pipe does not take yet (write() returns false but
 * stores it): a client that stops reading would make mca hold every update of a running turn in memory. Here each
 * message goes to stdout at once (so all unread bytes sit in one measurable buffer); when the bytes still unread
 * before a message exceed `maxUnread`, mca logs one line and ends the connection: nothing more is queued, the
 * sessions close as when stdin ends, and mca exits with code 1 (src/cli/modes/acp-mode.ts), dropping the unread output.
 * Memory for output stays below `maxUnread` plus one message.
 */
import type { Writable } from 'node:stream';
import { WritableStream } from 'node:stream/web';

/** What a client may leave unread before mca drops it (a reading client never comes near: it takes each line). */
export const MAX_UNREAD_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface BoundedOutputOptions {
  maxUnread?: number;
  /** Called once, with the line to log, when the client left too much unread. */
  overflow(line: string): void;
}

export function boundedOutput(out: Writable, options: BoundedOutputOptions): WritableStream<Uint8Array> {
  const maxUnread = options.maxUnread ?? MAX_UNREAD_OUTPUT_BYTES;
  let failure: Error | undefined;
  return new WritableStream<Uint8Array>({
    start(controller) {
      // A closed pipe (EPIPE) ends the connection instead of crashing mca.
      out.on('error', (error: Error) => {
        failure ??= error;
        controller.error(error);
      });
    },
    write(chunk) {
      if (failure) throw failure;
      const unread = out.writableLength;
      if (unread > maxUnread) {
        failure = new Error(
          `the ACP client left ${unread} bytes of mca's output unread (the limit is ${maxUnread}, ` +
            'MCA_ACP_MAX_UNREAD_BYTES); closing the connection',
        );
        options.overflow(failure.message);
        throw failure;
      }
      out.write(chunk);
    },
  });
}
