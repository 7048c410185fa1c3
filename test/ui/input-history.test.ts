import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadInputHistory, saveInputHistory } from '../../src/ui/input-history.js';

it('saves and loads history as one JSON string per line, creating directories', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mca-ui-'));
  const path = join(dir, 'nested', 'history.jsonl');
  await saveInputHistory(path, ['one', 'two\nlines']);
  expect(await readFile(path, 'utf8')).toBe('"one"\n"two\\nlines"\n');
  expect(await loadInputHistory(path)).toEqual(['one', 'two\nlines']);
});

it('skips corrupt lines, caps the length and returns [] for a missing file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mca-ui-'));
  const path = join(dir, 'history.jsonl');
  expect(await loadInputHistory(path)).toEqual([]);
  await writeFile(path, '"a"\n{broken\n"b"\n"b"\n"c"\n');
  expect(await loadInputHistory(path, 2)).toEqual(['b', 'c']);
});

it('writes the file 0600 and never stores a key value, even when the user pasted it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mca-ui-'));
  const path = join(dir, 'history.jsonl');
  const key = 'sk-live-0123456789abcdef';
  await saveInputHistory(path, [`my key is ${key}`, 'ls'], [key]);
  const { stat } = await import('node:fs/promises');
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  const text = await readFile(path, 'utf8');
  expect(text).not.toContain(key);
  expect(await loadInputHistory(path)).toEqual(['my key is [REDACTED]', 'ls']);
});
