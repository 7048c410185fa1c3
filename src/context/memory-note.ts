/**
 * `# note` in the REPL: one line added to a memory file the person picks (Claude Code's three places): the
 * project's `CLAUDE.md` (shared, checked in), the project's `CLAUDE.local.md` (personal), or the user's
 * `~/.claude/CLAUDE.md` (every project). The line is appended as a Markdown list item; the file is created when
 * missing. Written through src/fs/atomic-write.ts: a planted symlink at the file's name is replaced, never written
 * through, and a project file's directory must be the real project root. The memory-file cache re-reads a file
 * when it changes, so the next turn carries the note.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { AtomicWriteError, controlDirectory, writeFileAtomic } from '../fs/atomic-write.js';
import { McaError } from '../errors/mca-error.js';

export type MemoryTargetKind = 'project' | 'local' | 'user';

export interface MemoryTarget {
  kind: MemoryTargetKind;
  /** What the picker shows. */
  label: string;
  path: string;
}

/** A memory file larger than this is not rewritten by a note (the person edits it with /memory). */
export const MEMORY_NOTE_MAX_BYTES = 1024 * 1024;

export class MemoryNoteError extends McaError {
  readonly code = 'MEMORY_NOTE_FAILED' as const;
}

/** The three files a note may go to, in the picker's order. */
export function memoryTargets(projectRoot: string, home: string = homedir()): MemoryTarget[] {
  return [
    {
      kind: 'project',
      label: 'Project memory (CLAUDE.md, shared with the team)',
      path: join(projectRoot, 'CLAUDE.md'),
    },
    {
      kind: 'local',
      label: 'Project memory, local (CLAUDE.local.md, just you)',
      path: join(projectRoot, 'CLAUDE.local.md'),
    },
    {
      kind: 'user',
      label: 'User memory (~/.claude/CLAUDE.md, every project)',
      path: join(home, '.claude', 'CLAUDE.md'),
    },
  ];
}

/** The note a `#` line carries: the text after the leading `#` characters, trimmed; empty for none. */
export function noteOf(line: string): string {
  return line.replace(/^#+/, '').trim();
}

/**
 * Appends `- note` to the target file (a new line of its own) and returns the file's path. Throws
 * MemoryNoteError naming the file and the cause.
 */
export function addMemoryNote(
  target: MemoryTarget,
  note: string,
  where: { projectRoot: string; home?: string },
): string {
  const text = note.replace(/\s*\n\s*/g, ' ').trim();
  if (!text) throw new MemoryNoteError('the note is empty');
  const home = where.home ?? homedir();
  let file: string;
  let root: string | undefined;
  try {
    if (target.kind === 'user') {
      // The user's own file may be a link into their dotfiles: the note goes to the file it names.
      file = join(controlDirectory(home, '.claude'), 'CLAUDE.md');
      file = realpathOrSelf(file);
    } else {
      root = realpathSync(where.projectRoot);
      file = join(root, target.kind === 'local' ? 'CLAUDE.local.md' : 'CLAUDE.md');
    }
  } catch (error) {
    throw new MemoryNoteError(`cannot write ${target.path}: ${(error as Error).message}`);
  }
  const read = readBoundedFile(file, { maxBytes: MEMORY_NOTE_MAX_BYTES, ...(root ? { root } : {}) });
  let before = '';
  if (read.ok) before = read.text;
  else if (read.reason !== 'missing') throw new MemoryNoteError(`${read.message}; the note was not saved`);
  const separator = before === '' || before.endsWith('\n') ? '' : '\n';
  try {
    writeFileAtomic(file, `${before}${separator}- ${text}\n`, {
      mode: 0o644,
      ...(root ? { root } : {}),
    });
  } catch (error) {
    if (error instanceof AtomicWriteError) throw new MemoryNoteError(`${error.message}; the note was not saved`);
    throw error;
  }
  return file;
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
