/**
 * Finding a project's session files: its own directory, plus (read-only, for sessions written before the
 * directory name became unique per path) the legacy directory, where only files whose meta record names this
 * exact project root count.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const EXTENSION = '.jsonl';
/** Session files are named by UUID; other .jsonl files in the directory (e.g. input history) are not sessions. */
const SESSION_FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A meta record is a few hundred bytes; more than this and the first line is not one. */
const META_PEEK_BYTES = 64 * 1024;

export interface SessionFile {
  id: string;
  dir: string;
  mtimeMs: number;
}

/** The `projectRoot` of a file's first line, or undefined when it is not a readable meta record. */
async function metaProjectRoot(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(META_PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, META_PEEK_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const line = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
    const meta = JSON.parse(line) as { type?: unknown; projectRoot?: unknown };
    return meta.type === 'meta' && typeof meta.projectRoot === 'string' ? meta.projectRoot : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

async function filesIn(dir: string, accept?: (path: string) => Promise<boolean>): Promise<SessionFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files: SessionFile[] = [];
  for (const name of names) {
    if (!name.endsWith(EXTENSION)) continue;
    const id = name.slice(0, -EXTENSION.length);
    if (!SESSION_FILE_ID.test(id)) continue;
    const path = join(dir, name);
    try {
      const info = await stat(path);
      if (info.isFile() && (accept === undefined || (await accept(path))))
        files.push({ id, dir, mtimeMs: info.mtimeMs });
    } catch {
      // deleted meanwhile
    }
  }
  return files;
}

/** Session files, newest (by mtime) first; ties broken by id so the order is stable. */
export async function listSessionFiles(
  dir: string,
  legacyDir: string | undefined,
  projectRoot: string,
): Promise<SessionFile[]> {
  const own = await filesIn(dir);
  const legacy =
    legacyDir === undefined
      ? []
      : await filesIn(legacyDir, async (path) => (await metaProjectRoot(path)) === projectRoot);
  const seen = new Set(own.map((file) => file.id));
  return [...own, ...legacy.filter((file) => !seen.has(file.id))].sort(
    (a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id),
  );
}

/** True when the file holds `needle` anywhere, read in chunks (session files can be huge). */
export async function fileContains(path: string, needle: Buffer): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    let carry = Buffer.alloc(0);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return false;
      position += bytesRead;
      const window = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      if (window.includes(needle)) return true;
      carry = Buffer.from(window.subarray(Math.max(0, window.length - needle.length + 1)));
    }
  } finally {
    await handle.close();
  }
}

export { EXTENSION as SESSION_EXTENSION };
