/** Which writes count as control files (always asked, denied in -p): .mca/, .claude/ and git's own directories. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isControlFile } from '../../src/tools/files/workspace.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-cf-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('isControlFile', () => {
  it('covers .mca, .claude and .git at the root in any case', () => {
    for (const path of ['.mca/config.json', '.claude/settings.json', '.git/config', '.GIT/hooks/pre-commit', '.Git']) {
      expect(isControlFile(path), path).toBe(true);
    }
  });

  it('covers a .git component at any depth (submodules, nested repositories)', () => {
    expect(isControlFile('vendor/lib/.git/config')).toBe(true);
    expect(isControlFile('a/.GIT/hooks/post-checkout')).toBe(true);
  });

  it('covers the gitdir a root .git file names, inside the project', () => {
    mkdirSync(join(root, 'meta', 'gd'), { recursive: true });
    writeFileSync(join(root, '.git'), 'gitdir: meta/gd\n');
    expect(isControlFile('meta/gd/config', root)).toBe(true);
    expect(isControlFile('META/gd/hooks/pre-commit', root)).toBe(true);
    expect(isControlFile('meta/other.txt', root)).toBe(false);
  });

  it('leaves ordinary files and look-alikes alone', () => {
    for (const path of ['src/a.ts', '.gitignore', '.github/workflows/ci.yml', 'docs/.git-notes', 'x.git/config']) {
      expect(isControlFile(path, root), path).toBe(false);
    }
  });
});
