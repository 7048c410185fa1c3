/**
 * Memory files, the L2 layer (DESIGN.md "Memory files (L2)"): `CODE_LAW.md` first (spec C5), then the user's
 * `~/.claude/CLAUDE.md` and `$MCA_HOME/CLAUDE.md`, then `CLAUDE.md`, `CLAUDE.local.md` and `AGENTS.md` (only where
 * a directory has no CLAUDE.md) from the repository root down to the project root, then those of a subdirectory
 * once the agent has read or edited a file under it. `@path` imports inside them are followed (depth ≤ 5, each
 * real file once, so cycles end) but stay inside the project, or the home directory for the user's own files and a
 * trusted project's; an untrusted project's files reach no further than the directory they belong to (the
 * project itself, not a repository root above it that may be the home directory). An import a Read deny rule
 * covers is not read. Every file is labelled with its path, re-read when it changes, never in history.
 *
 * Bounded whatever the files say: each real file is read once (deduplicated by real path before reading), at most
 * MAX_MEMORY_FILES files are visited, and once the bytes read reach MEMORY_READ_BUDGET_FACTOR × the total cap
 * nothing more is read (the rest is listed as left out).
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside } from '../fs/contained-path.js';
import type { PathCheck } from '../permissions/path-screen.js';
import { DEFAULT_CODE_LAW_MAX_CHARS, MemoryFileCache } from './memory-file-cache.js';

export const CODE_LAW_FILE = 'CODE_LAW.md';
export const MEMORY_HEADING = '# Project Rules and Memory';
export const MAX_IMPORT_DEPTH = 5;
/** All memory files together; past this the rest are left out with a visible note. */
export const DEFAULT_MEMORY_TOTAL_MAX_CHARS = 120_000;
/** Memory files (imports included) visited per read; past this the rest is not even opened. */
export const MAX_MEMORY_FILES = 200;
/**
 * Bytes read across all memory files, per character of the total cap (read-but-left-out and blank files count):
 * twice the cap at up to 4 bytes a character.
 */
export const MEMORY_READ_BUDGET_FACTOR = 8;
/** Left-out files named in the note; the rest are counted. */
const NAMED_OMISSIONS = 10;

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
  /** Read deny rules (the one path screen, src/permissions/path-screen.ts): an import they cover is skipped with a problem line. */
  readDenied?: PathCheck;
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

/** How close to a directory's mtime a listing may be taken and still be trusted later (coarse timestamps). */
const RACY_LISTING_NS = 2_000_000_000n;

export class MemoryFiles {
  private readonly cache: MemoryFileCache;
  private readonly projectRoot: string;
  private readonly repoRoot: string;
  private readonly home: string;
  private readonly totalMaxChars: number;
  private lastEntries: MemoryEntry[] = [];
  private lastProblems: string[] = [];
  /** The project root's listing for CODE_LAW.md, kept while the root's mtime stays (see locateCodeLaw). */
  private rootListing: { mtimeNs: bigint; listedAtNs: bigint; codeLaw: string | undefined } | undefined;

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
    /** Real paths loaded, and real path + allowed roots tried (a file refused for one importer may suit another). */
    const loaded = new Set<string>();
    const tried = new Set<string>();
    let total = 0;
    let bytesRead = 0;
    let visited = 0;
    const omitted: string[] = [];
    const readBudget = this.totalMaxChars * MEMORY_READ_BUDGET_FACTOR;
    const visit = (candidate: Candidate, depth: number, importedBy: string | undefined): void => {
      // The real path first: a file reached again (40,000 links to one file, a cycle) costs one realpath, no read.
      let realPath: string;
      try {
        realPath = realpathSync(candidate.path);
      } catch {
        return;
      }
      const attempt = `${realPath}\0${candidate.roots?.join('\0') ?? ''}`;
      if (loaded.has(realPath) || tried.has(attempt)) return;
      tried.add(attempt);
      const label = this.labelOf(candidate.path);
      if (visited >= MAX_MEMORY_FILES || bytesRead >= readBudget) {
        omitted.push(label);
        return;
      }
      visited += 1;
      if (importedBy !== undefined) {
        // The check itself matches the path as written and its real path (path-screen.ts).
        const rule = this.options.readDenied?.(candidate.path);
        if (rule) {
          problems.push(
            `skipped ${label} (imported by ${importedBy}): ${rule.behavior === 'ask' ? 'withheld by the ask rule' : 'denied by'} ${rule.text} (${rule.source})`,
          );
          return;
        }
      }
      const read = this.cache.read(candidate.path, candidate.roots);
      if (read.kind === 'skipped') {
        problems.push(read.problem);
        return;
      }
      if (read.kind === 'missing') return;
      loaded.add(realPath);
      bytesRead += read.bytesRead;
      if (read.kind === 'empty') return;
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
      const named = omitted.slice(0, NAMED_OMISSIONS).join(', ');
      const more = omitted.length > NAMED_OMISSIONS ? ` and ${omitted.length - NAMED_OMISSIONS} more` : '';
      const files = visited >= MAX_MEMORY_FILES ? ` or ${MAX_MEMORY_FILES} files` : '';
      sections.push(
        `[Note: ${omitted.length} memory file(s) left out because all memory files together are over ` +
          `${this.totalMaxChars.toLocaleString('en-US')} characters${files}: ${named}${more}.]`,
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
    const list: Candidate[] = [];
    const codeLaw = this.locateCodeLaw();
    if (codeLaw) list.push({ path: codeLaw, level: 'rules', roots: [this.projectRoot] });
    list.push({ path: join(this.home, '.claude', 'CLAUDE.md'), level: 'user', roots: undefined });
    list.push({ path: join(this.options.mcaHome, 'CLAUDE.md'), level: 'user', roots: undefined });
    for (const dir of directoryChain(this.repoRoot, this.projectRoot)) {
      list.push(...this.directoryFiles(dir, 'project', this.directoryRoots(dir)));
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

  /**
   * The root entry named code_law.md in any case; the exact `CODE_LAW.md` wins when several exist. Read every step,
   * so the listing is kept while the root directory's mtime is unchanged (an entry added, removed or renamed changes
   * it). A listing taken within 2 s of that mtime is not trusted (a change in the same timestamp tick would not show).
   */
  private locateCodeLaw(): string | undefined {
    let mtimeNs: bigint;
    try {
      mtimeNs = statSync(this.projectRoot, { bigint: true }).mtimeNs;
    } catch {
      return undefined;
    }
    const kept = this.rootListing;
    if (kept && kept.mtimeNs === mtimeNs && kept.listedAtNs - mtimeNs > RACY_LISTING_NS) return kept.codeLaw;
    const listedAtNs = BigInt(Date.now()) * 1_000_000n;
    let names: string[];
    try {
      names = readdirSync(this.projectRoot);
    } catch {
      return undefined;
    }
    const matches = names.filter((name) => name.toLowerCase() === CODE_LAW_FILE.toLowerCase()).sort();
    const chosen = matches.includes(CODE_LAW_FILE) ? CODE_LAW_FILE : matches[0];
    const codeLaw = chosen === undefined ? undefined : join(this.projectRoot, chosen);
    this.rootListing = { mtimeNs, listedAtNs, codeLaw };
    return codeLaw;
  }

  private resolveImport(path: string, from: string): string {
    if (path.startsWith('~/')) return join(this.home, path.slice(2));
    return isAbsolute(path) ? resolve(path) : resolve(dirname(from), path);
  }

  /**
   * Where the memory files of a directory between the repository root and the project root may really live. A
   * trusted project: anywhere in the repository. An untrusted one: inside the project, or for a directory above
   * it inside that directory, so a repository root that is the home directory cannot widen it to `~/.ssh`.
   */
  private directoryRoots(dir: string): readonly string[] {
    if (this.options.trusted === true) return [this.repoRoot];
    return isInside(this.projectRoot, dir) ? [this.projectRoot] : [dir];
  }

  /** The user's own files and a trusted project's import from the repository or home; others stay where they are. */
  private importRoots(importer: Candidate): readonly string[] {
    const fromUser = importer.level === 'user' || (importer.roots?.includes(this.home) ?? false);
    if (fromUser || this.options.trusted === true) return [this.repoRoot, this.home];
    return importer.roots ?? [this.projectRoot];
  }

  private labelOf(path: string): string {
    if (isInside(this.projectRoot, path)) return relative(this.projectRoot, path);
    if (isInside(this.home, path)) return `~/${relative(this.home, path)}`;
    return path;
  }
}
