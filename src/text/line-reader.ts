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

/** A byte stream mca reads lines from (stdin): `data` chunks, then `end`, or `error` when the writer vanished. */
export interface LineSource {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'error', listener: () => void): unknown;
}

/**
 * Reads `source` line by line through a LineReader: each line to `line`, each over-long one to `tooLong` (and
 * dropped), and once, at `end` or `error` (the writer vanished ends the input like EOF), a last line without its
 * newline, then `end`.
 */
export function readLines(
  source: LineSource,
  reader: LineReader,
  handlers: { line(text: string): void; tooLong(error: LineTooLongError): void; end(): void },
): void {
  let open = true;
  const finish = (): void => {
    if (!open) return;
    open = false;
    const last = reader.finish();
    if (last !== undefined) handlers.line(last);
    handlers.end();
  };
  source.on('data', (chunk: Buffer) => {
    if (!open) return;
    for (const line of reader.push(chunk, handlers.tooLong)) handlers.line(line);
  });
  source.on('end', finish);
  source.on('error', finish);
}
