/**
 * Newline-delimited messages (an MCP server's stdout, an SDK host's stdin) in bounded memory and linear time:
 * chunks are kept as a list and joined once per line (a peer flooding megabytes without a newline costs one copy,
 * not one per chunk), and a line longer than `maxBytes` is an error instead of unbounded growth. After that error
 * the rest of the over-long line is dropped up to its newline, so a reader that goes on gets the next whole line.
 */
import { McaError } from '../errors/mca-error.js';

export class LineTooLongError extends McaError {
  readonly code = 'LINE_TOO_LONG' as const;
}

export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The current line already overflowed: its bytes are dropped up to the next newline. */
  private dropping = false;

  /** `source` names who sent the line in the error ("the server", "the host"). */
  constructor(
    private readonly maxBytes: number,
    private readonly source = 'the server',
  ) {}

  /**
   * The complete lines this chunk finishes (without their newline). An over-long line is reported to `tooLong`
   * and skipped (the lines around it still come out); without `tooLong` it throws LineTooLongError.
   */
  push(chunk: Buffer, tooLong?: (error: LineTooLongError) => void): string[] {
    const lines: string[] = [];
    const report = (error: LineTooLongError): void => {
      if (!tooLong) throw error;
      tooLong(error);
    };
    let rest = chunk;
    for (let at = rest.indexOf(0x0a); at >= 0; at = rest.indexOf(0x0a)) {
      const dropped = this.dropping;
      this.dropping = false;
      const size = this.size + at;
      if (!dropped && size > this.maxBytes) {
        this.clear();
        report(this.tooLong(size));
      } else if (!dropped) {
        this.chunks.push(rest.subarray(0, at));
        lines.push(Buffer.concat(this.chunks, size).toString('utf8').replace(/\r$/, ''));
      }
      this.clear();
      rest = rest.subarray(at + 1);
    }
    if (rest.length > 0 && !this.dropping) {
      this.chunks.push(rest);
      this.size += rest.length;
      if (this.size > this.maxBytes) {
        const size = this.size;
        this.clear();
        this.dropping = true;
        report(this.tooLong(size));
      }
    }
    return lines;
  }

  /** What is left after the input ended: a last line without its newline, if any. */
  finish(): string | undefined {
    const last = this.dropping || this.size === 0 ? undefined : Buffer.concat(this.chunks, this.size).toString('utf8');
    this.clear();
    return last?.replace(/\r$/, '');
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }

  private tooLong(size: number): LineTooLongError {
    return new LineTooLongError(`${this.source} sent a message over ${this.maxBytes} bytes (${size} so far)`);
  }
}
