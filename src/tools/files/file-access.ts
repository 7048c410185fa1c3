/**
 * The file-access port of the tools that read and change text files (Read, Write, Edit, MultiEdit). Absent, they
 * use the disk through node fs (pinned directory, atomic replace). A front whose host holds the files (an editor
 * over ACP: its unsaved buffers are what the person sees) gives one; the tools then take a file's text from it and
 * hand the new text to it. Everything else stays the tools' own, before the port is called: the workspace guard,
 * the regular-file, binary and size checks on disk, the read-before-write rule and the freshness check.
 */
import type { ScanOptions, ScanResult } from './line-scanner.js';

export interface FileAccess {
  /** The file's text as the host holds it (an absolute path inside the project, already guarded). */
  readText(absolute: string, signal: AbortSignal): Promise<string>;
  /** Replaces the file's text with `content` (the host saves it). */
  writeText(absolute: string, content: string): Promise<void>;
}

/** scanLines over text already in memory: the same line numbering, "\r\n" and BOM handling and early stop. */
export function scanText(text: string, options: ScanOptions): ScanResult {
  if (text === '') return { totalLines: 0, stopped: false, aborted: false };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    if (options.signal?.aborted) return { totalLines: index, stopped: true, aborted: true };
    const number = index + 1;
    if (number < options.from) continue;
    if (number > options.to) break;
    let line = (lines[index] ?? '').replace(/\r$/, '');
    if (number === 1 && line.startsWith('\ufeff')) line = line.slice(1);
    const bytes = Buffer.byteLength(line, 'utf8');
    if (options.onLine(number, line, bytes) === false) return { totalLines: number, stopped: true, aborted: false };
  }
  return { totalLines: lines.length, stopped: false, aborted: false };
}
