import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMemoryNote, memoryTargets, MemoryNoteError } from '../../src/context/memory-note.js';

function dirs(): { projectRoot: string; home: string; outside: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-note-')));
  const projectRoot = join(root, 'project');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const dir of [projectRoot, home, outside]) mkdirSync(dir);
  return { projectRoot, home, outside };
}

describe('addMemoryNote', () => {
  it('appends a list item to the picked file, on a line of its own, creating the file when missing', () => {
    const where = dirs();
    const [project, local, user] = memoryTargets(where.projectRoot, where.home);
    writeFileSync(join(where.projectRoot, 'CLAUDE.md'), '# Rules\nno trailing newline');
    addMemoryNote(project!, 'use pnpm', where);
    expect(readFileSync(join(where.projectRoot, 'CLAUDE.md'), 'utf8')).toBe(
      '# Rules\nno trailing newline\n- use pnpm\n',
    );
    addMemoryNote(local!, 'my port is 5173', where);
    expect(readFileSync(join(where.projectRoot, 'CLAUDE.local.md'), 'utf8')).toBe('- my port is 5173\n');
    addMemoryNote(user!, 'answer briefly', where);
    expect(readFileSync(join(where.home, '.claude', 'CLAUDE.md'), 'utf8')).toBe('- answer briefly\n');
  });

  it('never writes through a symlink a project planted at CLAUDE.md', () => {
    const where = dirs();
    const victim = join(where.outside, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, join(where.projectRoot, 'CLAUDE.md'));
    expect(() => addMemoryNote(memoryTargets(where.projectRoot, where.home)[0]!, 'note', where)).toThrow(
      MemoryNoteError,
    );
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
  });

  it('refuses an empty note', () => {
    const where = dirs();
    expect(() => addMemoryNote(memoryTargets(where.projectRoot, where.home)[0]!, '   ', where)).toThrow('empty');
  });
});
