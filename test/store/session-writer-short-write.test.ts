/**
 * A session write that the file system only partly accepts (here a file-size limit: the kernel writes up to the
 * limit, returns a short count, then refuses with EFBIG) must not leave half a record in the file, where the next
 * record would glue itself to it and the loader would lose both. Runs the real writer in a child under `ulimit -f`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

it('a record cut short by a file-size limit is taken back whole, and the error names the file and cause', () => {
  dir = mkdtempSync(join(tmpdir(), 'mca-short-write-'));
  const file = join(dir, 'session.jsonl');
  // Records of ~1,500 bytes against a 4 KB limit: the third one crosses the limit part-way.
  const script = `
    import { JsonlSessionWriter } from './src/store/session-writer.ts';
    const writer = new JsonlSessionWriter('s1', ${JSON.stringify(file)}, []);
    for (let round = 1; round <= 6; round += 1) {
      try {
        writer.appendMessage({ role: 'user', content: 'x'.repeat(1500), metadata: { round, ts: 't' } });
        console.log('ok ' + round);
      } catch (error) {
        console.log('failed ' + round + ': ' + error.code + ': ' + error.message);
      }
    }
  `;
  const run = spawnSync(
    'bash',
    ['-c', `ulimit -f 4; trap '' XFSZ; exec "$0" --import tsx -e "$1"`, process.execPath, script],
    {
      cwd: process.cwd(),
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  const lines = run.stdout.trim().split('\n');
  expect(lines.slice(0, 2)).toEqual(['ok 1', 'ok 2']);
  expect(lines[2]).toMatch(/^failed 3: SESSION_WRITE_FAILED: cannot write session file .*session\.jsonl: /);
  const text = readFileSync(file, 'utf8');
  // Only whole records are left: every line parses, and the file ends at a line break.
  expect(text.endsWith('\n')).toBe(true);
  const records = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { message: { metadata: { round: number } } });
  expect(records.map((record) => record.message.metadata.round)).toEqual([1, 2]);
});
