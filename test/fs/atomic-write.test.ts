/** Control files never follow a planted link: random O_EXCL temp names, and a directory out of the root refused. */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicWriteError, controlDirectory, writeFileAtomic } from '../../src/fs/atomic-write.js';

let base: string;
let root: string;
let victim: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-cw-')));
  root = join(base, 'project');
  mkdirSync(root);
  victim = join(base, 'bashrc');
  writeFileSync(victim, 'original\n');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces a symlink at the target instead of writing through it, with the mode asked for', () => {
    const target = join(root, 'settings.json');
    symlinkSync(victim, target);
    writeFileAtomic(target, 'new\n', { root, mode: 0o600 });
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(lstatSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
  });

  it('never uses a predictable temp name and leaves no temp file', () => {
    for (let pid = process.pid - 2; pid <= process.pid + 2; pid += 1) {
      symlinkSync(victim, join(root, `settings.json.${pid}.tmp`));
    }
    writeFileAtomic(join(root, 'settings.json'), 'x', { root });
    writeFileAtomic(join(root, 'settings.json'), 'y', { root });
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(readdirSync(root).filter((name) => name.startsWith('.settings.json'))).toEqual([]);
  });

  it('refuses a directory that is a symlink, inside or outside the root', () => {
    symlinkSync(base, join(root, '.mca'));
    expect(() => writeFileAtomic(join(root, '.mca', 'bashrc'), 'x', { root })).toThrow(AtomicWriteError);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(() => controlDirectory(root, '.mca')).toThrow(/is a symlink/);
  });

  it('creates a missing control directory as a real directory', () => {
    expect(controlDirectory(root, '.mca')).toBe(join(root, '.mca'));
    expect(lstatSync(join(root, '.mca')).isDirectory()).toBe(true);
    expect(() => controlDirectory(root, '../x')).toThrow(/climbs out/);
  });
});
