/**
 * Reading memory files (CODE_LAW.md, CLAUDE.md, AGENTS.md, their @imports) for L2: each is a file mca reads on
 * its own, so it must be a regular file whose real path is inside one of its allowed roots, read with a cap
 * (only the first `maxChars × 4` bytes, so a 3 GiB file costs little). Results are cached by path, mtime and
 * size, so a file is re-read exactly when it changes. A file over `maxChars` is cut with a visible note.
 */
import { lstatSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';

export const DEFAULT_CODE_LAW_MAX_CHARS = 40_000;

/** The visible note appended when a file was cut. */
export function memoryCutNote(maxChars: number, fileName: string, sizeBytes: number): string {
  return (
    `[Note: ${fileName} is ${sizeBytes.toLocaleString('en-US')} bytes; only its first ` +
    `${maxChars.toLocaleString('en-US')} characters are shown above.]`
  );
}

export type MemoryFileRead =
  | { kind: 'text'; text: string; sizeBytes: number; realPath: string; cut: boolean; bytesRead: number }
  | { kind: 'empty'; realPath: string; bytesRead: number }
  | { kind: 'missing' }
  | { kind: 'skipped'; problem: string };

interface Cached {
  mtimeMs: number;
  size: number;
  rootsKey: string;
  result: MemoryFileRead;
}

export class MemoryFileCache {
  private readonly maxChars: number;
  private readonly cache = new Map<string, Cached>();

  constructor(maxChars = DEFAULT_CODE_LAW_MAX_CHARS) {
    this.maxChars = Math.max(1, Math.floor(maxChars));
  }

  /**
   * Reads `path`. `roots` are real directories one of which must hold the file's real path; undefined means
   * anywhere (the user's own files). Never throws.
   */
  read(path: string, roots: readonly string[] | undefined): MemoryFileRead {
    let info;
    try {
      info = statSync(path);
    } catch {
      this.cache.delete(path);
      return { kind: 'missing' };
    }
    const rootsKey = roots?.join('\0') ?? '';
    const cached = this.cache.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size && cached.rootsKey === rootsKey) {
      return cached.result;
    }
    const result = this.load(path, roots);
    this.cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, rootsKey, result });
    return result;
  }

  private load(path: string, roots: readonly string[] | undefined): MemoryFileRead {
    const options = { maxBytes: this.maxChars * 4, truncate: true } as const;
    let read = readBoundedFile(path, roots?.[0] === undefined ? options : { ...options, root: roots[0] });
    for (const root of roots?.slice(1) ?? []) {
      if (read.ok || read.reason !== 'outside') break;
      read = readBoundedFile(path, { ...options, root });
    }
    if (!read.ok) {
      if (read.reason === 'missing') return { kind: 'missing' };
      const link = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? ' (a symlink)' : '';
      return { kind: 'skipped', problem: `skipped ${basename(path)}${link}: ${read.message}` };
    }
    const bytesRead = Math.min(read.sizeBytes, this.maxChars * 4);
    const cut = read.text.length > this.maxChars || read.truncated;
    const kept = cut ? read.text.slice(0, this.maxChars) : read.text;
    if (kept.trim() === '') return { kind: 'empty', realPath: read.realPath, bytesRead };
    const text = cut ? `${kept.trimEnd()}\n\n${memoryCutNote(this.maxChars, basename(path), read.sizeBytes)}` : kept;
    return { kind: 'text', text, sizeBytes: read.sizeBytes, realPath: read.realPath, cut, bytesRead };
  }
}
