import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFsView, preprocessInput, type ProjectFsView } from '../../src/context/input-preprocessor.js';

let root: string;
let outside: string;
let view: ProjectFsView;

const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'd.md', 'e.md', 'f.md', 'g.md', 'a b.md', 'README', 'v1.2'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mca-pre-'));
  outside = await mkdtemp(join(tmpdir(), 'mca-out-'));
  await mkdir(join(root, 'src', 'utils'), { recursive: true });
  for (const file of FILES) await writeFile(join(root, file), `SECRET CONTENT OF ${file}`);
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
  view = createProjectFsView(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function reminder(...lines: string[]): string {
  return ['<system-reminder>', ...lines, '</system-reminder>'].join('\n');
}

describe('preprocessInput', () => {
  it('leaves text without mentions unchanged', () => {
    expect(preprocessInput('fix the bug please', view)).toEqual({
      text: 'fix the bug please',
      mentions: [],
      images: [],
    });
  });

  it('appends the exact one-file reminder after a blank line', () => {
    const result = preprocessInput('explain @src/a.ts', view);
    expect(result.text).toBe(
      'explain @src/a.ts\n\n' +
        reminder('The user mentioned @src/a.ts.', 'You MUST read this file with the Read tool before answering.'),
    );
    expect(result.mentions).toEqual([{ path: 'src/a.ts', kind: 'file', quoted: false, display: '@src/a.ts' }]);
  });

  it('dedupes: the same file twice is still "this file"', () => {
    const result = preprocessInput('@src/a.ts vs @src/a.ts and @./src/a.ts', view);
    expect(result.mentions).toHaveLength(1);
    expect(result.text).toContain('You MUST read this file with the Read tool');
  });

  it('uses "these files" for two or more distinct files, in order of appearance', () => {
    const result = preprocessInput('compare @src/b.ts with @src/a.ts then @src/b.ts', view);
    expect(
      result.text.endsWith(
        reminder(
          'The user mentioned @src/b.ts, @src/a.ts.',
          'You MUST read these files with the Read tool before answering.',
        ),
      ),
    ).toBe(true);
  });

  it('lists five of seven and says "(and 2 more…)"', () => {
    const input = '@src/a.ts @src/b.ts @src/c.ts @d.md @e.md @f.md @g.md';
    const result = preprocessInput(input, view);
    expect(result.mentions).toHaveLength(7);
    expect(result.text).toContain(
      'The user mentioned @src/a.ts, @src/b.ts, @src/c.ts, @d.md, @e.md (and 2 more\u2026).\n',
    );
    expect(result.text.match(/<system-reminder>/g)).toHaveLength(1);
  });

  it('does not treat an e-mail address as a mention', () => {
    const result = preprocessInput('mail user@d.md or me@src/a.ts', view);
    expect(result.mentions).toEqual([]);
    expect(result.text).toBe('mail user@d.md or me@src/a.ts');
  });

  it('leaves a missing path as plain text', () => {
    expect(preprocessInput('see @missing/file.ts', view)).toEqual({
      text: 'see @missing/file.ts',
      mentions: [],
      images: [],
    });
  });

  it('supports quoted paths with spaces and renders them quoted', () => {
    const result = preprocessInput('open @"a b.md" now', view);
    expect(result.mentions).toEqual([{ path: 'a b.md', kind: 'file', quoted: true, display: '@"a b.md"' }]);
    expect(result.text).toContain('The user mentioned @"a b.md".\n');
  });

  it('asks for LS on a directory', () => {
    const result = preprocessInput('what is in @src/utils', view);
    expect(result.text).toContain(
      reminder('The user mentioned @src/utils.', 'You MUST list this directory with the LS tool before answering.'),
    );
  });

  it('names files and directories separately when mixed', () => {
    const result = preprocessInput('@src/a.ts and @src/utils/ and @src', view);
    expect(result.text).toContain(
      'You MUST read this file (@src/a.ts) with the Read tool and list these directories (@src/utils/, @src) ' +
        'with the LS tool before answering.',
    );
  });

  it('rejects ../ escapes, absolute paths and symlinks leaving the project', () => {
    const escape = `@../${outside.split('/').pop() ?? ''}/secret.txt`;
    const result = preprocessInput(`${escape} @${join(outside, 'secret.txt')} @link.txt @../`, view);
    expect(result.mentions).toEqual([]);
  });

  it('strips trailing sentence punctuation only when needed', () => {
    const dot = preprocessInput('look at @src/a.ts.', view);
    expect(dot.mentions.map((mention) => mention.path)).toEqual(['src/a.ts']);
    expect(dot.text).toContain('The user mentioned @src/a.ts.\n');
    const comma = preprocessInput('see @d.md, then', view);
    expect(comma.mentions.map((mention) => mention.path)).toEqual(['d.md']);
    // "v1.2" exists as a file, so the dot belongs to the name and is kept.
    expect(preprocessInput('version @v1.2', view).mentions.map((mention) => mention.path)).toEqual(['v1.2']);
    expect(preprocessInput('file @README.', view).mentions.map((mention) => mention.path)).toEqual(['README']);
  });

  it('never injects file content', () => {
    const result = preprocessInput('@d.md', view);
    expect(result.text).not.toContain('SECRET CONTENT');
    expect(result.mentions).toHaveLength(1);
  });
});
