/**
 * CODE_LAW.md (spec C5; DESIGN.md "CODE_LAW"): the project's rules, injected as L2 on every build, never
 * written to history. Found at the project root with a case-insensitive name, cached by mtime and size, and
 * re-read when either changes. Only the first `maxChars × 4` bytes are ever read, so a huge file costs little.
 * The file comes with the repository, so it must be a regular file whose real path is inside the project: a
 * symlink to ~/.ssh/id_rsa, a FIFO or a device is skipped (and `problem()` says why, once, for the front end).
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';

export const CODE_LAW_FILE = 'CODE_LAW.md';
export const DEFAULT_CODE_LAW_MAX_CHARS = 40_000;

interface Cached {
  path: string;
  mtimeMs: number;
  size: number;
  text: string | undefined;
}

/** The visible note appended when the rules were cut. */
export function codeLawCutNote(maxChars: number, fileName: string, sizeBytes: number): string {
  return (
    `[Note: ${fileName} is ${sizeBytes.toLocaleString('en-US')} bytes; only its first ` +
    `${maxChars.toLocaleString('en-US')} characters are shown above.]`
  );
}

export class CodeLaw {
  private readonly projectRoot: string;
  private readonly maxChars: number;
  private cached: Cached | undefined;
  private lastProblem: string | undefined;

  constructor(projectRoot: string, maxChars = DEFAULT_CODE_LAW_MAX_CHARS) {
    this.projectRoot = projectRoot;
    this.maxChars = Math.max(1, Math.floor(maxChars));
  }

  /** The rules text (cut with a note when too long), or undefined when there is no non-empty CODE_LAW file. */
  read(): string | undefined {
    const path = this.locate();
    if (path === undefined) {
      this.cached = undefined;
      return undefined;
    }
    let info;
    try {
      info = statSync(path);
    } catch {
      return undefined;
    }
    const cached = this.cached;
    if (cached?.path === path && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.text;
    const text = this.load(path, info.size);
    this.cached = { path, mtimeMs: info.mtimeMs, size: info.size, text };
    return text;
  }

  /** The root entry named code_law.md in any case; the exact `CODE_LAW.md` wins when several exist. */
  private locate(): string | undefined {
    let names: string[];
    try {
      names = readdirSync(this.projectRoot);
    } catch {
      return undefined;
    }
    const matches = names.filter((name) => name.toLowerCase() === CODE_LAW_FILE.toLowerCase()).sort();
    const chosen = matches.includes(CODE_LAW_FILE) ? CODE_LAW_FILE : matches[0];
    return chosen === undefined ? undefined : join(this.projectRoot, chosen);
  }

  /** Why the rules file was skipped on the last read, or undefined when it was used (or absent). */
  problem(): string | undefined {
    return this.lastProblem;
  }

  private load(path: string, size: number): string | undefined {
    let root: string;
    try {
      root = realpathSync(this.projectRoot);
    } catch {
      return undefined;
    }
    const read = readBoundedFile(path, { root, maxBytes: this.maxChars * 4, truncate: true });
    if (!read.ok) {
      const link = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? ' (a symlink)' : '';
      this.lastProblem = `skipped ${basename(path)}${link}: ${read.message}`;
      return undefined;
    }
    this.lastProblem = undefined;
    const text = read.text;
    const cut = text.length > this.maxChars || read.truncated;
    const kept = cut ? text.slice(0, this.maxChars) : text;
    if (kept.trim() === '') return undefined;
    if (!cut) return kept;
    return `${kept.trimEnd()}\n\n${codeLawCutNote(this.maxChars, basename(path), Math.max(size, read.sizeBytes))}`;
  }
}
