import { mkdtemp, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodeLaw } from '../../src/context/code-law.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mca-law-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('CodeLaw', () => {
  it('is undefined without a file', () => {
    expect(new CodeLaw(root).read()).toBeUndefined();
  });

  it('finds a lower-case code_law.md and re-reads it after a change', async () => {
    const file = join(root, 'code_law.md');
    await writeFile(file, 'rule one');
    const law = new CodeLaw(root);
    expect(law.read()).toBe('rule one');
    await writeFile(file, 'rule two');
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    expect(law.read()).toBe('rule two');
  });

  it('serves the cached text while mtime and size are unchanged', async () => {
    const file = join(root, 'Code_Law.MD');
    await writeFile(file, 'aaaa');
    const fixed = new Date('2026-01-01T00:00:00Z');
    await utimes(file, fixed, fixed);
    const law = new CodeLaw(root);
    expect(law.read()).toBe('aaaa');
    await writeFile(file, 'bbbb');
    await utimes(file, fixed, fixed);
    expect(law.read()).toBe('aaaa');
  });

  it('cuts a 5 MB file with a visible note', async () => {
    await writeFile(join(root, 'CODE_LAW.md'), 'r'.repeat(5 * 1024 * 1024));
    const text = new CodeLaw(root, 40_000).read() ?? '';
    expect(text.startsWith('r'.repeat(40_000))).toBe(true);
    expect(text).not.toContain('r'.repeat(40_001));
    expect(text).toContain('[Note: CODE_LAW.md is 5,242,880 bytes; only its first 40,000 characters are shown above.]');
  });

  it('reads only a bounded prefix of a file too big to load whole (3 GiB, sparse)', async () => {
    const file = join(root, 'CODE_LAW.md');
    await writeFile(file, 'rule zero\n');
    await truncate(file, 3 * 1024 ** 3);
    const text = new CodeLaw(root, 1_000).read() ?? '';
    expect(text.startsWith('rule zero\n')).toBe(true);
    expect(text).toContain(
      '[Note: CODE_LAW.md is 3,221,225,472 bytes; only its first 1,000 characters are shown above.]',
    );
  });

  it('does not cut a file exactly at the limit', async () => {
    await writeFile(join(root, 'CODE_LAW.md'), 'x'.repeat(100));
    expect(new CodeLaw(root, 100).read()).toBe('x'.repeat(100));
    await writeFile(join(root, 'CODE_LAW.md'), 'x'.repeat(101));
    expect(new CodeLaw(root, 100).read()).toContain('[Note:');
  });

  it('treats an empty file as absent and notices deletion', async () => {
    const file = join(root, 'CODE_LAW.md');
    await writeFile(file, '  \n');
    const law = new CodeLaw(root);
    expect(law.read()).toBeUndefined();
    await writeFile(file, 'x');
    expect(law.read()).toBe('x');
    await rm(file);
    expect(law.read()).toBeUndefined();
  });
});
