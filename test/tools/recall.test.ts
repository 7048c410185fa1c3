import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { DirectoryToolMemory, InMemoryToolMemory, toolRefOf } from '../../src/tools/memory/tool-memory.js';
import { makeContext, runTool } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mca-tool-memory-'));
  dirs.push(dir);
  return dir;
}

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `out ${index + 1}`).join('\n');

async function recall(memory: InMemoryToolMemory | DirectoryToolMemory | undefined, input: Record<string, unknown>) {
  const context = { ...makeContext(tempDir()), ...(memory ? { toolMemory: memory } : {}) };
  return runTool(createDefaultRegistry(), 'Recall', input, context);
}

describe('tool memory', () => {
  it('stores by content: the same text is one file with one reference, private to the user', () => {
    const dir = join(tempDir(), 'session.tools');
    const memory = new DirectoryToolMemory(dir);
    const ref = memory.store('hello\nworld');
    expect(ref).toBe(toolRefOf('hello\nworld'));
    expect(memory.store('hello\nworld')).toBe(ref);
    expect(memory.store('other')).not.toBe(ref);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(statSync(join(dir, `${ref ?? ''}.txt`)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(new DirectoryToolMemory(dir).recall(ref ?? '')).toBe('hello\nworld');
  });

  it('redacts before writing: a credential in a tool result never reaches the disk', () => {
    const dir = join(tempDir(), 'session.tools');
    const memory = new DirectoryToolMemory(dir, (text) => text.replaceAll('sk-secret-123', '[REDACTED]'));
    const ref = memory.store('env: KEY=sk-secret-123') ?? '';
    expect(readFileSync(join(dir, `${ref}.txt`), 'utf8')).toBe('env: KEY=[REDACTED]');
    expect(memory.recall(ref)).toBe('env: KEY=[REDACTED]');
  });

  it('a stored file that is empty or cut short (a crash before the disk had it) is an unknown reference', async () => {
    const dir = join(tempDir(), 'session.tools');
    const memory = new DirectoryToolMemory(dir);
    const whole = memory.store(numbered(40)) ?? '';
    const cut = memory.store(numbered(41)) ?? '';
    writeFileSync(join(dir, `${whole}.txt`), '');
    writeFileSync(join(dir, `${cut}.txt`), numbered(20));
    expect(memory.recall(whole)).toBeUndefined();
    expect(memory.recall(cut)).toBeUndefined();
    expect((await recall(memory, { ref: cut })).error?.code).toBe('NOT_FOUND');
  });

  it('never resolves a reference that names another path', () => {
    const memory = new DirectoryToolMemory(tempDir());
    for (const ref of ['../secret', 'r../../etc/pa', '/etc/passwd', 'R0123456789AB', 'r0123456789ab/..']) {
      expect(memory.recall(ref)).toBeUndefined();
    }
  });

  it('reports an unwritable directory as no reference instead of throwing', () => {
    const file = join(tempDir(), 'a-file');
    const blocked = new DirectoryToolMemory(join(file, 'below'));
    writeFileSync(file, 'not a dir');
    expect(blocked.store('text')).toBeUndefined();
  });
});

describe('Recall', () => {
  it('returns numbered lines of the stored result from start_line, with a footer where to continue', async () => {
    const memory = new InMemoryToolMemory();
    const ref = memory.store(numbered(30));
    const result = await recall(memory, { ref, start_line: 10, limit: 5 });
    expect(result.status).toBe('success');
    expect(result.text).toBe(
      '10\tout 10\n11\tout 11\n12\tout 12\n13\tout 13\n14\tout 14\n(16 more lines; continue with start_line 15)',
    );
    expect(result.data).toMatchObject({ ref, start_line: 10, end_line: 14, total_lines: 30, truncated: true });
  });

  it("applies Read's caps: long lines are cut and one result stays under 100,000 characters", async () => {
    const memory = new InMemoryToolMemory();
    const ref = memory.store(Array.from({ length: 200 }, () => 'y'.repeat(5_000)).join('\n'));
    const result = await recall(memory, { ref, limit: 2000 });
    expect(result.text.length).toBeLessThanOrEqual(100_000 + 200);
    expect(result.text).toContain('… [line truncated: 5000 chars]');
    expect(result.data).toMatchObject({ truncated: true });
  });

  it('errors: unknown reference, no store, start past the end, malformed reference', async () => {
    const memory = new InMemoryToolMemory();
    const ref = memory.store('one\ntwo');
    expect((await recall(memory, { ref: 'r0123456789ab' })).error?.code).toBe('NOT_FOUND');
    expect((await recall(undefined, { ref })).error?.code).toBe('NOT_FOUND');
    const past = await recall(memory, { ref, start_line: 3 });
    expect(past.error?.code).toBe('INVALID_PARAM');
    expect(past.error?.message).toContain('has 2 lines');
    expect((await recall(memory, { ref: '../../etc/passwd' })).error?.code).toBe('INVALID_PARAM');
  });
});
