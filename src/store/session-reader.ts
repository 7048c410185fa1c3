/**
 * Streams a session file of any size through SessionLineFolder: bytes are split at "\n" without decoding the
 * whole file into one string (which fails past 512 MB), so memory is bounded by the history it holds and by
 * the longest record, and one record larger than MAX_RECORD_BYTES is skipped (counted, never buffered).
 * It also reports where the last complete line ends, in bytes, so a torn tail is cut at the right byte.
 */
import { open } from 'node:fs/promises';
import { SessionError } from './session-error.js';
import { SessionLineFolder, type ParsedSession } from './session-records.js';

/** Longest record decoded; a 70 MB Write makes a record of about that size, so the bound is generous. */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

export interface ReadSession extends ParsedSession {
  /** Bytes up to and including the last "\n": where a torn tail is cut. */
  completeBytes: number;
  /** Size of the file as read. */
  totalBytes: number;
}

export async function readSessionFile(path: string, label: string): Promise<ReadSession> {
  const folder = new SessionLineFolder(label);
  const handle = await open(path, 'r');
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new SessionError('SESSION_INVALID', `${path} is not a regular file; mca only reads sessions it wrote`);
  }
  const buffer = Buffer.allocUnsafe(CHUNK);
  let parts: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let lineNumber = 1;
  let position = 0;
  let completeBytes = 0;
  const finishLine = (torn: boolean): void => {
    if (oversized) folder.skipOversized(lineNumber, pendingBytes);
    else if (pendingBytes > 0) folder.accept(Buffer.concat(parts, pendingBytes).toString('utf8'), lineNumber, torn);
    parts = [];
    pendingBytes = 0;
    oversized = false;
  };
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const newline = buffer.indexOf(NEWLINE, start);
        const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
        pendingBytes += end - start;
        if (pendingBytes > MAX_RECORD_BYTES) {
          oversized = true;
          parts = [];
        } else if (end > start) {
          parts.push(Buffer.from(buffer.subarray(start, end)));
        }
        if (end === bytesRead) break;
        completeBytes = position + end + 1;
        finishLine(false);
        lineNumber += 1;
        start = end + 1;
      }
      position += bytesRead;
    }
    if (pendingBytes > 0 || oversized) finishLine(true);
  } finally {
    await handle.close();
  }
  return { ...folder.result, completeBytes, totalBytes: position };
}
