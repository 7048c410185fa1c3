/**
 * Reading a subagent run back from its sidecar transcript (for Ctrl-O and /agents): its steps in order, failed
 * calls marked; malformed lines skipped; a huge transcript read only up to its cap; the newest runs listed.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listSubagentRuns,
  MAX_RUNS,
  MAX_TRANSCRIPT_BYTES,
  readSubagentRun,
  subagentTranscriptDir,
} from '../../src/subagents/subagent-steps.js';

const meta = { type: 'meta', version: 1, sessionId: 'subagent-finder', projectRoot: '/p', createdAt: 'x', model: 'm' };
const message = (role: string, content: string, action?: { tool: string; input: unknown }) => ({
  type: 'message',
  message: { role, content, metadata: { round: 1, ts: '2026-01-01T00:00:00Z', ...(action ? { action } : {}) } },
});

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'mca-subagent-steps-'));
}

describe('subagent transcripts', () => {
  it('lists the steps in order with failures marked, skipping lines that are not records', () => {
    const path = join(dir(), 'toolu_1.jsonl');
    const lines = [
      JSON.stringify(meta),
      JSON.stringify(message('user', 'Find the code.')),
      '{not json',
      JSON.stringify({ type: 'message', message: { role: 'tool' } }),
      JSON.stringify(message('tool', '{"status":"success"}', { tool: 'Read', input: { path: 'a.txt' } })),
      JSON.stringify(message('tool', '{"status":"error"}', { tool: 'Grep', input: { pattern: 'x' } })),
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const run = readSubagentRun(path)!;
    expect(run).toMatchObject({ id: 'toolu_1', agent: 'finder', prompt: 'Find the code.', cut: false });
    expect(run.steps).toEqual([
      { tool: 'Read', input: { path: 'a.txt' }, failed: false },
      { tool: 'Grep', input: { pattern: 'x' }, failed: true },
    ]);
    expect(readSubagentRun(join(dir(), 'missing.jsonl'))).toBeUndefined();
  });

  it('reads a huge transcript only up to its cap, and says it was cut', () => {
    const path = join(dir(), 'toolu_big.jsonl');
    const step = JSON.stringify(message('tool', 'y'.repeat(10_000), { tool: 'Read', input: { path: 'a' } }));
    const count = Math.ceil((MAX_TRANSCRIPT_BYTES * 2) / step.length);
    writeFileSync(path, `${JSON.stringify(meta)}\n${`${step}\n`.repeat(count)}`);
    const run = readSubagentRun(path)!;
    expect(run.cut).toBe(true);
    expect(run.steps.length).toBeGreaterThan(0);
    expect(run.steps.length).toBeLessThan(count);
  });

  it('lists the newest runs of a session, at most MAX_RUNS, and none for a session without any', () => {
    const sessionFile = join(dir(), 'abc.jsonl');
    const runs = subagentTranscriptDir(sessionFile);
    expect(runs).toBe(sessionFile.replace(/\.jsonl$/, '.agents'));
    expect(listSubagentRuns(runs)).toEqual({ runs: [], more: 0 });
    mkdirSync(runs);
    for (let index = 0; index < MAX_RUNS + 3; index += 1) {
      const path = join(runs, `toolu_${index}.jsonl`);
      writeFileSync(path, `${JSON.stringify(meta)}\n`);
      utimesSync(path, 1_000 + index, 1_000 + index);
    }
    const listed = listSubagentRuns(runs);
    expect(listed.more).toBe(3);
    expect(listed.runs).toHaveLength(MAX_RUNS);
    expect(listed.runs.at(-1)!.id).toBe(`toolu_${MAX_RUNS + 2}`);
    expect(listed.runs[0]!.id).toBe('toolu_3');
  });
});
