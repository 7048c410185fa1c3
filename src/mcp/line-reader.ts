/**
 * Newline-delimited messages from a server's stdout in bounded memory and linear time: chunks are kept as a list
 * and joined once per line (a server flooding megabytes without a newline costs one copy, not one per chunk), and a
 * line longer than `maxBytes` is an error (the connection is then closed) instead of unbounded growth.
 */
import { McaError } from '../errors/mca-error.js';

export class LineTooLongError extends McaError {
  readonly code = 'MCP_MESSAGE_TOO_LARGE' as const;
}

export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The complete lines this chunk finishes (without their newline). Throws LineTooLongError. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let rest = chunk;
    for (let at = rest.indexOf(0x0a); at >= 0; at = rest.indexOf(0x0a)) {
      this.chunks.push(rest.subarray(0, at));
      this.size += at;
      this.check();
      lines.push(Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, ''));
      this.chunks = [];
      this.size = 0;
      rest = rest.subarray(at + 1);
    }
    if (rest.length > 0) {
      this.chunks.push(rest);
      this.size += rest.length;
      this.check();
    }
    return lines;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }

  private check(): void {
    if (this.size > this.maxBytes) {
      const size = this.size;
      this.clear();
      throw new LineTooLongError(`the server sent a message over ${this.maxBytes} bytes (${size} so far)`);
    }
  }
}
