import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importsOf, MemoryFiles, type MemoryFilesOptions } from '../../src/context/memory-files.js';

let base: string;
let repo: string;
let project: string;
let home: string;
let mcaHome: string;

function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function memory(options: Partial<MemoryFilesOptions> = {}): MemoryFiles {
  return new MemoryFiles({ projectRoot: project, mcaHome, home, ...options });
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-memory-')));
  repo = join(base, 'repo');
  project = join(repo, 'packages', 'app');
  home = join(base, 'home');
  mcaHome = join(home, '.mca');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(mcaHome, { recursive: true });
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('MemoryFiles', () => {
  it('is undefined without files', () => {
    expect(memory().read()).toBeUndefined();
  });

  it('finds a CODE_LAW.md added, renamed or removed after an earlier read of an old project root', () => {
    const files = memory();
    // The root's mtime well in the past, so the first listing is kept while that mtime stays.
    const old = new Date(Date.now() - 60_000);
    utimesSync(project, old, old);
    expect(files.read()).toBeUndefined();
    put(join(project, 'code_law.md'), 'LAW ONE');
    expect(files.read()).toContain('## code_law.md\n\nLAW ONE');
    utimesSync(project, old, old);
    expect(files.read()).toContain('LAW ONE');
    put(join(project, 'CODE_LAW.md'), 'LAW TWO');
    expect(files.read()).toContain('## CODE_LAW.md\n\nLAW TWO');
    rmSync(join(project, 'CODE_LAW.md'));
    rmSync(join(project, 'code_law.md'));
    expect(files.read()).toBeUndefined();
  });

  it('orders CODE_LAW, user files, repository root down to the project, each labelled by its path', () => {
    put(join(project, 'code_law.md'), 'LAW');
    put(join(home, '.claude', 'CLAUDE.md'), 'USER CLAUDE');
    put(join(mcaHome, 'CLAUDE.md'), 'MCA HOME');
    put(join(repo, 'CLAUDE.md'), 'REPO ROOT');
    put(join(repo, 'AGENTS.md'), 'REPO AGENTS (shadowed by CLAUDE.md)');
    put(join(repo, 'packages', 'AGENTS.md'), 'PACKAGES AGENTS');
    put(join(project, 'CLAUDE.md'), 'PROJECT');
    put(join(project, 'CLAUDE.local.md'), 'LOCAL');
    const text = memory().read() ?? '';
    const order = [
      '# Project Rules and Memory',
      '## code_law.md\n\nLAW',
      '## ~/.claude/CLAUDE.md\n\nUSER CLAUDE',
      '## ~/.mca/CLAUDE.md\n\nMCA HOME',
      `## ${join(repo, 'CLAUDE.md')}\n\nREPO ROOT`,
      `## ${join(repo, 'packages', 'AGENTS.md')}\n\nPACKAGES AGENTS`,
      '## CLAUDE.md\n\nPROJECT',
      '## CLAUDE.local.md\n\nLOCAL',
    ];
    let at = -1;
    for (const piece of order) {
      const next = text.indexOf(piece);
      expect(next, piece).toBeGreaterThan(at);
      at = next;
    }
    expect(text).not.toContain('REPO AGENTS');
  });

  it('re-reads a changed file and drops a deleted one', () => {
    const file = put(join(project, 'CLAUDE.md'), 'rule one');
    const files = memory();
    expect(files.read()).toContain('rule one');
    writeFileSync(file, 'rule two!');
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    expect(files.read()).toContain('rule two!');
    rmSync(file);
    expect(files.read()).toBeUndefined();
  });

  it('follows @imports relative to the importing file, ending cycles and stopping at depth 5', () => {
    put(join(project, 'CLAUDE.md'), 'see @docs/a.md and `@docs/ignored.md` and mail me@example.com');
    put(join(project, 'docs', 'a.md'), 'A imports @./b.md');
    put(join(project, 'docs', 'b.md'), 'B imports @a.md and @c.md');
    put(join(project, 'docs', 'c.md'), 'C imports @d.md');
    put(join(project, 'docs', 'd.md'), 'D imports @e.md');
    put(join(project, 'docs', 'e.md'), 'E imports @f.md');
    put(join(project, 'docs', 'f.md'), 'F is too deep');
    put(join(project, 'docs', 'ignored.md'), 'IGNORED');
    const files = memory();
    const text = files.read() ?? '';
    expect(text).toContain('## docs/a.md (imported by CLAUDE.md)');
    expect(text).toContain('## docs/b.md (imported by docs/a.md)');
    expect(text.match(/^A imports/gm)).toHaveLength(1);
    expect(text).toContain('E imports');
    expect(text).not.toContain('F is too deep');
    expect(text).not.toContain('IGNORED');
    expect(files.entries().map((entry) => entry.label)).toEqual([
      'CLAUDE.md',
      'docs/a.md',
      'docs/b.md',
      'docs/c.md',
      'docs/d.md',
      'docs/e.md',
    ]);
  });

  it('skips a symlink out of the repository and an import out of it, naming each once', () => {
    const secret = put(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    symlinkSync(secret, join(project, 'CLAUDE.md'));
    put(join(project, 'AGENTS.md'), 'never read: CLAUDE.md exists');
    put(join(project, 'CLAUDE.local.md'), 'read @../../../home/.ssh/id_rsa and @~/.ssh/id_rsa');
    const files = memory();
    const text = files.read() ?? '';
    expect(text).not.toContain('PRIVATE KEY');
    // One real file is tried once per set of allowed roots (issue 23: dedupe by real path before reading).
    expect(files.problems().length).toBeGreaterThanOrEqual(1);
    expect(files.problems().every((line) => /^skipped (CLAUDE\.md \(a symlink\)|id_rsa): /.test(line))).toBe(true);
    // The user's own file may import from the home directory; so may a trusted project's.
    put(join(home, '.claude', 'CLAUDE.md'), 'mine: @~/notes.md');
    put(join(home, 'notes.md'), 'USER NOTES');
    expect(memory().read()).toContain('USER NOTES');
    put(join(project, 'CLAUDE.local.md'), '@~/notes2.md');
    put(join(home, 'notes2.md'), 'NOTES TWO');
    expect(memory().read()).not.toContain('NOTES TWO');
    expect(memory({ trusted: true }).read()).toContain('NOTES TWO');
  });

  it("adds a subdirectory's file once the agent touched a file under it", () => {
    put(join(project, 'src', 'api', 'CLAUDE.md'), 'API RULES');
    put(join(project, 'src', 'AGENTS.md'), 'SRC AGENTS');
    const touched: string[] = [];
    const files = memory({ touched: () => touched });
    expect(files.read()).toBeUndefined();
    touched.push(join(project, 'src', 'api', 'handler.ts'));
    const text = files.read() ?? '';
    expect(text.indexOf('## src/AGENTS.md')).toBeGreaterThan(0);
    expect(text.indexOf('## src/api/CLAUDE.md')).toBeGreaterThan(text.indexOf('## src/AGENTS.md'));
  });

  it('cuts a big file with a visible note, reads only a bounded prefix, and caps the total', () => {
    put(join(project, 'CODE_LAW.md'), 'rule zero\n');
    truncateSync(join(project, 'CODE_LAW.md'), 3 * 1024 ** 3);
    const text = memory({ maxChars: 1_000 }).read() ?? '';
    expect(text).toContain('rule zero');
    expect(text).toContain(
      '[Note: CODE_LAW.md is 3,221,225,472 bytes; only its first 1,000 characters are shown above.]',
    );
    put(join(project, 'CODE_LAW.md'), 'x'.repeat(100));
    expect(memory({ maxChars: 100 }).read()).not.toContain('[Note:');
    put(join(project, 'CLAUDE.md'), 'y'.repeat(100));
    const capped = memory({ maxChars: 100, totalMaxChars: 150 });
    expect(capped.read()).toContain(
      '[Note: 1 memory file(s) left out because all memory files together are over 150 characters: CLAUDE.md.]',
    );
    expect(capped.entries().map((entry) => [entry.label, entry.omitted])).toEqual([
      ['CODE_LAW.md', false],
      ['CLAUDE.md', true],
    ]);
  });

  it('finds imports only in prose', () => {
    expect(importsOf('@a.md, @dir/b.md. ```\n@c.md\n``` `@d.md` x@e.md @team')).toEqual(['a.md', 'dir/b.md']);
  });
});
