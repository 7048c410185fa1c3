import { open, type FileHandle } from 'node:fs/promises';

/** A path (opened and closed here) or a descriptor the caller already opened and verified (left open). */
export type FileSource = string | FileHandle;

async function handleOf(source: FileSource): Promise<{ handle: FileHandle; owned: boolean }> {
  return typeof source === 'string'
    ? { handle: await open(source, 'r'), owned: true }
    : { handle: source, owned: false };
}

export interface ScanOptions {
  /** First line (1-based) handed to `onLine`. */
  from: number;
  /** Last line handed to `onLine`; lines after it are only counted. */
  to: number;
  /** Bytes of one line kept for decoding; the rest is counted, never held in memory. */
  maxLineBytes: number;
  signal?: AbortSignal;
  /** Return false to stop the scan early (the total then counts lines seen so far). */
  onLine(lineNumber: number, text: string, fullBytes: number): boolean | void;
}

export interface ScanResult {
  /** Lines in the file (a final line without "\n" counts), or seen so far when stopped early. */
  totalLines: number;
  stopped: boolean;
  aborted: boolean;
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Streams a file in 64 KB chunks and reports lines in [from, to] without ever loading the whole file or a whole
 * overlong line, so multi-gigabyte files are read in bounded memory. "\r\n" endings lose the "\r"; a UTF-8 BOM
 * on the first line is dropped; invalid UTF-8 becomes U+FFFD.
 */
export async function scanLines(source: FileSource, options: ScanOptions): Promise<ScanResult> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const { handle, owned } = await handleOf(source);
  let position = 0;
  const buffer = Buffer.allocUnsafe(CHUNK);
  let lineNumber = 1;
  let parts: Buffer[] = [];
  let kept = 0;
  let full = 0;
  let pending = false;
  const emit = (): boolean => {
    let bytes = Buffer.concat(parts, kept);
    if (full === kept && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    let text = decoder.decode(bytes);
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const verdict = options.onLine(lineNumber, text, full);
    parts = [];
    kept = 0;
    full = 0;
    return verdict !== false;
  };
  try {
    for (;;) {
      if (options.signal?.aborted) return { totalLines: lineNumber - 1, stopped: true, aborted: true };
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let start = 0;
      while (start < bytesRead) {
        const wanted = lineNumber >= options.from && lineNumber <= options.to;
        const newline = buffer.indexOf(NEWLINE, start);
        const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
        if (wanted) {
          const room = options.maxLineBytes - kept;
          if (room > 0) {
            const take = Math.min(room, end - start);
            parts.push(Buffer.from(buffer.subarray(start, start + take)));
            kept += take;
          }
          full += end - start;
        }
        pending = end > start || pending;
        if (end === bytesRead && (newline === -1 || newline >= bytesRead)) break;
        if (wanted && !emit()) return { totalLines: lineNumber, stopped: true, aborted: false };
        lineNumber += 1;
        pending = false;
        start = end + 1;
      }
    }
    if (pending) {
      const wanted = lineNumber >= options.from && lineNumber <= options.to;
      if (wanted) emit();
      return { totalLines: lineNumber, stopped: false, aborted: false };
    }
    return { totalLines: lineNumber - 1, stopped: false, aborted: false };
  } finally {
    if (owned) await handle.close();
  }
}

/** First `bytes` of a file (fewer if it is shorter). */
export async function readHead(source: FileSource, bytes: number): Promise<Buffer> {
  const { handle, owned } = await handleOf(source);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    if (owned) await handle.close();
  }
}

/** Binary when the head has a NUL byte or more than 10% of it is not valid UTF-8. */
export function looksBinary(head: Buffer): boolean {
  if (head.includes(0)) return true;
  if (head.length === 0) return false;
  const text = new TextDecoder('utf-8').decode(head, { stream: true });
  let bad = 0;
  for (const char of text) if (char === '\ufffd') bad += 1;
  return bad > Math.max(4, text.length * 0.1);
}
