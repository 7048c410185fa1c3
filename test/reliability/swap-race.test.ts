/**
 * The check-then-use race: another process keeps swapping a project directory for a symlink to a directory
 * outside (and back) while the real file tools write, read and edit through it. Whatever the timing, nothing
 * outside may change and no read may return outside content. Runs MCA_RACE_RUNS rounds (100 in `npm test`,
 * 1,000 in `npm run test:reliability`), each a Write of a new file, a Read and a Read+Edit, for two depths
 * of the swapped component.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStateRecord } from '../../src/tools/files/file-state.js';
import { createDefaultRegistry, type RunContext } from '../../src/tools/registry/registry.js';
import { runTool } from '../tools/helpers.js';
import { TodoStore } from '../../src/tools/planning/todo-store.js';
import { makeSandbox } from './harness.js';
import { ResultLog } from './results.js';

const RUNS = Number(process.env.MCA_RACE_RUNS ?? 100);
const SECRET = 'OUTSIDE-SECRET-5b1e';
const registry = createDefaultRegistry();
const log = new ResultLog('race');
const order: string[] = [];

/** A child that swaps `<project>/<swapped>` between the real directory and a symlink to `outside`, forever. */
function startSwapper(project: string, swapped: string, outside: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const dir = path.join(${JSON.stringify(project)}, ${JSON.stringify(swapped)});
    const aside = dir + '.real';
    for (;;) {
      try { fs.renameSync(dir, aside); fs.symlinkSync(${JSON.stringify(outside)}, dir); } catch {}
      try { fs.unlinkSync(dir); fs.renameSync(aside, dir); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

function outsideState(outside: string): string {
  return readdirSync(outside)
    .sort()
    .map((name) => `${name}=${readFileSync(join(outside, name), 'utf8')}`)
    .join('|');
}

function raceCase(name: string, swapped: string, fileDir: string): void {
  const fault = `${name} swapped for a symlink to outside during Write/Read/Edit (×${RUNS})`;
  order.push(fault);
  it(fault, { timeout: Math.max(120_000, RUNS * 400) }, async () => {
    const sandbox = await makeSandbox('mca-race');
    const outside = join(sandbox.project, '..', 'outside');
    mkdirSync(outside);
    mkdirSync(join(sandbox.project, fileDir), { recursive: true });
    for (const file of ['data.txt', 'target.txt']) {
      writeFileSync(join(outside, file), `${SECRET}\n`);
      writeFileSync(join(sandbox.project, fileDir, file), 'inside\n');
    }
    const before = outsideState(outside);
    const ctx: RunContext = {
      projectRoot: sandbox.project,
      signal: new AbortController().signal,
      fileState: new FileStateRecord(),
      todos: new TodoStore(),
      gate: { decide: () => Promise.resolve({ behavior: 'allow' }) },
    };
    const outcomes = new Map<string, number>();
    const count = (tool: string, status: string, code?: string): void => {
      const key = `${tool} ${code ?? status}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    };
    let leaks = 0;
    /** The messages of unexpected throws, so a failure names the path that threw. */
    const internal: string[] = [];
    let behaviour = 'the check failed';
    let intact = 0;
    const swapper = startSwapper(sandbox.project, swapped, outside);
    try {
      for (let run = 0; run < RUNS; run += 1) {
        const rel = (file: string): string => `${fileDir}/${file}`;
        const written = await runTool(registry, 'Write', { path: rel(`new-${run}.txt`), content: `run ${run}\n` }, ctx);
        count('Write', written.status, written.error?.code);
        const read = await runTool(registry, 'Read', { path: rel('data.txt') }, ctx);
        count('Read', read.status, read.error?.code);
        if (JSON.stringify(read).includes(SECRET)) leaks += 1;
        const target = await runTool(registry, 'Read', { path: rel('target.txt') }, ctx);
        if (JSON.stringify(target).includes(SECRET)) leaks += 1;
        const edited = await runTool(
          registry,
          'Edit',
          { path: rel('target.txt'), old_string: 'inside', new_string: 'inside' + '!' },
          ctx,
        );
        count('Edit', edited.status, edited.error?.code);
        if (edited.error?.code === 'INTERNAL_ERROR') internal.push(edited.error.message);
        if (edited.status === 'success') {
          // Put it back so the next run's old_string matches again.
          await runTool(registry, 'Read', { path: rel('target.txt') }, ctx);
          await runTool(
            registry,
            'Edit',
            { path: rel('target.txt'), old_string: 'inside!', new_string: 'inside' },
            ctx,
          );
        }
      }
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
    try {
      expect(outsideState(outside)).toBe(before);
      expect(leaks).toBe(0);
      // Every outcome is an answer the tool gives on purpose: a race never surfaces as an unexpected throw.
      expect(internal).toEqual([]);
      expect([...outcomes.keys()].filter((key) => key.endsWith('INTERNAL_ERROR'))).toEqual([]);
      const summary = [...outcomes.entries()]
        .sort()
        .map(([key, value]) => `${key} ${value}`)
        .join(', ');
      behaviour = `nothing outside changed, no outside content read (${summary})`;
      intact = RUNS;
    } finally {
      log.add({ group: 'race', fault, behaviour, runs: RUNS, intact });
      await sandbox.cleanup();
    }
  });
}

describe('no check-then-use race in the file tools', () => {
  afterAll(() => log.write(order));
  raceCase('the file’s directory', 'sub', 'sub');
  raceCase('a directory two levels up', 'a', 'a/b/c');
});
