import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Entry } from 'fast-glob';
import { GitignoreRules } from './gitignore.js';
import { loadFastGlob } from './lazy-modules.js';

export interface WalkOptions {
  projectRoot: string;
  /** Project-relative directory to walk ("." for the root). */
  baseRel: string;
  /** fast-glob patterns relative to the base directory. */
  patterns: string[];
  /** Patterns are relative to the project root (results still limited to the base directory). */
  patternsFromRoot?: boolean;
  /** Include dotfiles and dot-directories (".git" is always skipped). */
  dot: boolean;
  /** Extra fast-glob ignore patterns, relative to the base. */
  ignore?: string[];
  signal?: AbortSignal;
}

export interface WalkedFile {
  /** Project-relative, "/" separated. */
  relative: string;
  absolute: string;
  mtimeMs: number;
}

const SIMPLE_NAME = /^[A-Za-z0-9._-]+\/?$/;

/**
 * Directory names the root .gitignore excludes at any depth ("node_modules/", "dist"), turned into fast-glob
 * ignore patterns so the walk never descends into them. Exact .gitignore filtering happens afterwards; this is
 * only pruning, and it is safe because git never re-includes files below an ignored directory.
 */
async function pruneHints(projectRoot: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(projectRoot, '.gitignore'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => SIMPLE_NAME.test(line) && line !== '.' && line !== '..')
    .map((line) => `**/${line.replace(/\/$/, '')}/**`);
}

/** Files under a project directory matching `patterns`, honouring .gitignore; symlinks are not followed. */
export async function* walkProjectFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const rules = await GitignoreRules.forBase(options.projectRoot, options.baseRel);
  const base = options.baseRel === '.' ? '' : options.baseRel;
  const hints = rules.baseIgnored ? [] : await pruneHints(options.projectRoot);
  const fromRoot = options.patternsFromRoot === true && base !== '';
  const cwd = fromRoot ? options.projectRoot : join(options.projectRoot, base);
  const fastGlob = await loadFastGlob();
  const stream: Readable = fastGlob.stream(options.patterns, {
    cwd,
    dot: options.dot,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    stats: true,
    ignore: ['**/.git/**', '.git/**', ...(options.ignore ?? []), ...hints],
  }) as Readable;
  try {
    for await (const raw of stream) {
      if (options.signal?.aborted) return;
      const entry = raw as unknown as Entry;
      if (entry.stats && !entry.stats.isFile()) continue;
      const relative = base === '' || fromRoot ? entry.path : `${base}/${entry.path}`;
      if (fromRoot && !relative.startsWith(`${base}/`)) continue;
      if (await rules.ignores(relative, false)) continue;
      yield { relative, absolute: join(options.projectRoot, relative), mtimeMs: entry.stats?.mtimeMs ?? 0 };
    }
  } finally {
    stream.destroy();
  }
}
