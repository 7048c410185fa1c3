/**
 * Memory files, the L2 layer (DESIGN.md "Memory files (L2)"): `CODE_LAW.md` first (spec C5), then the user's
 * `~/.claude/CLAUDE.md` and `$MCA_HOME/CLAUDE.md`, then `CLAUDE.md`, `CLAUDE.local.md` and `AGENTS.md` (only where
 * a directory has no CLAUDE.md) from the repository root down to the project root, then those of a subdirectory
 * once the agent has read or edited a file under it. `@path` imports inside them are followed (depth ≤ 5, each
 * file once, so cycles end) but stay inside the project, or the home directory for the user's own files and a
 * trusted project's. Every file is labelled with its path, re-read when it changes, never in history.
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside } from '../fs/contained-path.js';
import { DEFAULT_CODE_LAW_MAX_CHARS, MemoryFileCache } from './memory-file-cache.js';

export const CODE_LAW_FILE = 'CODE_LAW.md';
export const MEMORY_HEADING = '# Project Rules and Memory';
export const MAX_IMPORT_DEPTH = 5;
/** All memory files together; past this the rest are left out with a visible note. */
export const DEFAULT_MEMORY_TOTAL_MAX_CHARS = 120_000;

export type MemoryLevel = 'rules' | 'user' | 'project' | 'subdirectory' | 'import';

export interface MemoryEntry {
  /** As shown to the model and in /memory: relative to the project, `~/…`, or absolute. */
  label: string;
  path: string;
  level: MemoryLevel;
  chars: number;
  cut: boolean;
  /** Left out because the total cap was reached. */
  omitted: boolean;
  importedBy?: string;
}

export interface MemoryFilesOptions {
  /** Real path of the project root. */
  projectRoot: string;
  mcaHome: string;
  home?: string;
  maxChars?: number;
  totalMaxChars?: number;
  /** A trusted project's files may import from the home directory; an untrusted one's only from the project. */
  trusted?: boolean;
  /** Absolute paths the agent has read or edited, in order (their directories' memory files join L2). */
  touched?: () => Iterable<string>;
}

interface Candidate {
  path: string;
  level: MemoryLevel;
  roots: readonly string[] | undefined;
}

const IMPORT_PATTERN = /(?<![\w`@])@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]*[\w/])/g;

/** The `@path` imports of a memory file, outside code blocks and inline code. */
export function importsOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const found: string[] = [];
  for (const match of prose.matchAll(IMPORT_PATTERN)) {
    const path = match[1] ?? '';
    if ((path.includes('.') || path.includes('/')) && !found.includes(path)) found.push(path);
  }
  return found;
}

function findRepositoryRoot(projectRoot: string): string {
  let current = projectRoot;
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return projectRoot;
    current = parent;
  }
}

function directoryChain(from: string, to: string): string[] {
  const chain: string[] = [to];
  let current = to;
  while (current !== from && isInside(from, current)) {
    current = dirname(current);
    chain.unshift(current);
  }
  return chain;
}

export class MemoryFiles {
  private readonly cache: MemoryFileCache;
  private readonly projectRoot: string;
  private readonly repoRoot: string;
  private readonly home: string;
  private readonly totalMaxChars: number;
  private lastEntries: MemoryEntry[] = [];
  private lastProblems: string[] = [];

  constructor(private readonly options: MemoryFilesOptions) {
    this.cache = new MemoryFileCache(options.maxChars ?? DEFAULT_CODE_LAW_MAX_CHARS);
    this.projectRoot = options.projectRoot;
    this.repoRoot = findRepositoryRoot(options.projectRoot);
    this.home = options.home ?? homedir();
    this.totalMaxChars = options.totalMaxChars ?? DEFAULT_MEMORY_TOTAL_MAX_CHARS;
  }

  /** The rendered L2 text, or undefined when no memory file has content. */
  read(): string | undefined {
    const sections: string[] = [];
    const entries: MemoryEntry[] = [];
    const problems: string[] = [];
    const seen = new Set<string>();
    let total = 0;
    const omitted: string[] = [];
    const visit = (candidate: Candidate, depth: number, importedBy: string | undefined): void => {
      const read = this.cache.read(candidate.path, candidate.roots);
      if (read.kind === 'skipped') {
        problems.push(read.problem);
        return;
      }
      if (read.kind === 'missing') return;
      if (seen.has(read.realPath)) return;
      seen.add(read.realPath);
      if (read.kind === 'empty') return;
      const label = this.labelOf(candidate.path);
      const heading = `## ${label}${importedBy ? ` (imported by ${importedBy})` : ''}`;
      const fits = total + read.text.length <= this.totalMaxChars;
      entries.push({
        label,
        path: candidate.path,
        level: candidate.level,
        chars: read.text.length,
        cut: read.cut,
        omitted: !fits,
        ...(importedBy ? { importedBy } : {}),
      });
      if (!fits) omitted.push(label);
      else {
        total += read.text.length;
        sections.push(`${heading}\n\n${read.text.trimEnd()}`);
      }
      if (depth < MAX_IMPORT_DEPTH) {
        for (const path of importsOf(read.text)) {
          const imported = { path: this.resolveImport(path, candidate.path), level: 'import' as const };
          visit({ ...imported, roots: this.importRoots(candidate) }, depth + 1, label);
        }
      }
    };
    for (const candidate of this.candidates()) visit(candidate, 0, undefined);
    this.lastEntries = entries;
    this.lastProblems = problems;
    if (sections.length === 0) return undefined;
    if (omitted.length > 0) {
      sections.push(
        `[Note: ${omitted.length} memory file(s) left out because all memory files together are over ` +
          `${this.totalMaxChars.toLocaleString('en-US')} characters: ${omitted.join(', ')}.]`,
      );
    }
    return `${MEMORY_HEADING}\n\n${sections.join('\n\n')}`;
  }

  /** What the last `read()` loaded, in order, for /memory. */
  entries(): readonly MemoryEntry[] {
    return this.lastEntries;
  }

  /** Files skipped on the last `read()` (a symlink out, a FIFO, …), one line each. */
  problems(): readonly string[] {
    return this.lastProblems;
  }

  private candidates(): Candidate[] {
    const project = [this.repoRoot];
    const list: Candidate[] = [];
    const codeLaw = this.locateCodeLaw();
    if (codeLaw) list.push({ path: codeLaw, level: 'rules', roots: [this.projectRoot] });
    list.push({ path: join(this.home, '.claude', 'CLAUDE.md'), level: 'user', roots: undefined });
    list.push({ path: join(this.options.mcaHome, 'CLAUDE.md'), level: 'user', roots: undefined });
    for (const dir of directoryChain(this.repoRoot, this.projectRoot)) {
      list.push(...this.directoryFiles(dir, 'project', project));
    }
    const subdirectories: string[] = [];
    for (const path of this.options.touched?.() ?? []) {
      const dir = dirname(path);
      if (dir === this.projectRoot || !isInside(this.projectRoot, dir)) continue;
      for (const step of directoryChain(this.projectRoot, dir).slice(1)) {
        if (!subdirectories.includes(step)) subdirectories.push(step);
      }
    }
    for (const dir of subdirectories) list.push(...this.directoryFiles(dir, 'subdirectory', [this.projectRoot]));
    return list;
  }

  private directoryFiles(dir: string, level: MemoryLevel, roots: readonly string[]): Candidate[] {
    const files = [join(dir, 'CLAUDE.md'), join(dir, 'CLAUDE.local.md')];
    if (!existsSync(files[0] as string)) files.push(join(dir, 'AGENTS.md'));
    return files.map((path) => ({ path, level, roots }));
  }

  /** The root entry named code_law.md in any case; the exact `CODE_LAW.md` wins when several exist. */
  private locateCodeLaw(): string | undefined {
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

  private resolveImport(path: string, from: string): string {
    if (path.startsWith('~/')) return join(this.home, path.slice(2));
    return isAbsolute(path) ? resolve(path) : resolve(dirname(from), path);
  }

  private importRoots(importer: Candidate): readonly string[] {
    const fromUser = importer.level === 'user' || (importer.roots?.includes(this.home) ?? false);
    return fromUser || this.options.trusted === true ? [this.repoRoot, this.home] : [this.repoRoot];
  }

  private labelOf(path: string): string {
    if (isInside(this.projectRoot, path)) return relative(this.projectRoot, path);
    if (isInside(this.home, path)) return `~/${relative(this.home, path)}`;
    return path;
  }
}
