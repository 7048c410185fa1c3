/**
 * Read's working code: opening the file inside its root, the binary and image checks, the line scan and the
 * result. Loaded with the first call of a tool (tool-code.ts); the definition and the result forms stay in read.ts.
 */
import type { FileHandle } from 'node:fs/promises';
import { contentHash } from './file-state.js';
import type { ToolContext } from '../registry/tool-context.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import { looksBinary, readHead, scanLines, type ScanOptions } from './line-scanner.js';
import { scanText } from './file-access.js';
import { similarPaths } from './suggest-paths.js';
import type { ReadData } from '../registry/tool-data.js';
import { resolveInProject } from './workspace.js';
import { isImagePath } from '../../fs/image-file.js';
import { readImage } from './read-image.js';
import { openFileInside, PathSwapError } from '../../fs/pinned-directory.js';
import { READ_FULL_SCAN_BYTES, READ_MAX_LINE_CHARS, READ_MAX_OUTPUT_CHARS } from './read-limits.js';

const BINARY_SNIFF_BYTES = 8 * 1024;

type ReadInput = { path: string; start_line: number; limit: number };

function cutLine(text: string, fullBytes: number): string {
  if (text.length <= READ_MAX_LINE_CHARS && fullBytes <= READ_MAX_LINE_CHARS * 4) return text;
  return `${text.slice(0, READ_MAX_LINE_CHARS)}… [line truncated: ${fullBytes} bytes]`;
}

export async function runRead(input: ReadInput, ctx: ToolContext): Promise<ToolEnvelope> {
  const resolved = resolveInProject(ctx.projectRoot, input.path, ctx.extraRoots);
  if (!resolved.ok) return errorEnvelope(resolved.error.code, resolved.error.message);
  const { absolute, relative, root } = resolved;
  const context = { path: relative, start_line: input.start_line, limit: input.limit };
  // The file is opened once, checked through its descriptor, and read only through that descriptor.
  let handle: FileHandle;
  try {
    handle = await openFileInside(root, absolute);
  } catch (error) {
    if (error instanceof PathSwapError) return errorEnvelope('ACCESS_DENIED', error.message, { context });
    if ((error as NodeJS.ErrnoException).code === 'EACCES') {
      return errorEnvelope('ACCESS_DENIED', `${relative} cannot be read: permission denied.`, { context });
    }
    const similar = await similarPaths(absolute, relative);
    const hint = similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ' Use Glob or LS to find it.';
    return errorEnvelope('NOT_FOUND', `File not found: ${relative}.${hint}`, { context });
  }
  try {
    return await readOpened(handle, relative, absolute, input, ctx);
  } finally {
    await handle.close();
  }
}

async function readOpened(
  handle: FileHandle,
  relative: string,
  absolute: string,
  input: { path: string; start_line: number; limit: number },
  ctx: ToolContext,
): Promise<ToolEnvelope> {
  const context = { path: relative, start_line: input.start_line, limit: input.limit };
  const info = await handle.stat();
  if (info.isDirectory()) {
    return errorEnvelope('IS_DIRECTORY', `${relative} is a directory; use LS to list it.`, { context });
  }
  if (!info.isFile()) return errorEnvelope('INVALID_PARAM', `${relative} is not a regular file.`, { context });
  if (isImagePath(relative)) return await readImage(handle, relative, info.size, context);
  if (looksBinary(await readHead(handle, BINARY_SNIFF_BYTES))) {
    return errorEnvelope('BINARY_FILE', `${relative} is a binary file (${info.size} bytes); Read only shows text.`, {
      context,
    });
  }

  const last = input.start_line + input.limit - 1;
  // Files over the size guard are read only up to the requested range: the rest is never scanned.
  const large = info.size > READ_FULL_SCAN_BYTES;
  const lines: Array<{ n: number; text: string }> = [];
  let outputChars = 0;
  let budgetHit = false;
  const scanOptions: ScanOptions = {
    from: input.start_line,
    to: large ? last + 1 : last,
    maxLineBytes: READ_MAX_LINE_CHARS * 4 + 4,
    signal: ctx.signal,
    onLine: (n, text, fullBytes) => {
      if (n > last) return false;
      if (budgetHit) return true;
      const line = cutLine(text, fullBytes);
      if (lines.length > 0 && outputChars + line.length > READ_MAX_OUTPUT_CHARS) {
        budgetHit = true;
        return true;
      }
      outputChars += line.length + 8;
      lines.push({ n, text: line });
      return true;
    },
  };
  // With a file-access port (an editor's buffers) the text is the host's; the checks above were on the disk.
  const hostText = ctx.files ? await ctx.files.readText(absolute, ctx.signal) : undefined;
  const scan = hostText !== undefined ? scanText(hostText, scanOptions) : await scanLines(handle, scanOptions);
  if (scan.aborted)
    return errorEnvelope('EXECUTION_ERROR', 'Read was interrupted.', { data: { interrupted: true }, context });
  const total = scan.totalLines;
  if (input.start_line > 1 && input.start_line > total) {
    return errorEnvelope(
      'INVALID_PARAM',
      `start_line ${input.start_line} is past the end of ${relative}, which has ${total} line${total === 1 ? '' : 's'}.`,
      { context, data: { total_lines: total } },
    );
  }

  const current = { mtimeMs: info.mtimeMs, size: info.size };
  const modifiedExternally = ctx.fileState.changedSince(absolute, current);
  // The host's whole text is in hand: its hash lets a later save of the same text keep the file fresh.
  ctx.fileState.record(absolute, hostText === undefined ? current : { ...current, hash: contentHash(hostText) });

  const endLine = lines.length > 0 ? (lines[lines.length - 1]?.n ?? input.start_line) : 0;
  const width = String(Math.max(endLine, 1)).length;
  const content = lines.map((line) => `${String(line.n).padStart(width)}\t${line.text}`).join('\n');
  const countUnknown = large && scan.stopped;
  const truncated = endLine < total;
  const data: ReadData = {
    path: relative,
    start_line: lines.length > 0 ? input.start_line : 0,
    end_line: endLine,
    total_lines: total,
    content,
    truncated,
    mtime_ms: info.mtimeMs,
  };
  if (modifiedExternally) data.modified_externally = true;

  const notes: string[] = [];
  if (modifiedExternally) notes.push(`Note: ${relative} was modified externally.`);
  if (total === 0) notes.push(`(${relative} is empty)`);
  const of = countUnknown ? `a ${info.size}-byte file (line count not computed)` : String(total);
  const cut = budgetHit ? ` (output capped at ${READ_MAX_OUTPUT_CHARS} characters)` : '';
  const footer = truncated
    ? `\n(Showing lines ${input.start_line}-${endLine} of ${of}${cut}. Use start_line=${endLine + 1} to continue.)`
    : '';
  const text = [...notes, content].filter((part) => part !== '').join('\n') + footer;
  // A range read is a complete answer to what was asked: status stays success; `truncated` says more exists.
  return toolResult(data, text, {
    stats: { lines: lines.length, bytes: info.size },
    context,
  });
}
