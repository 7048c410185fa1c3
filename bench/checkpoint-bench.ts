/**
 * Checkpoint bench: what the snapshot around one Bash call costs on a generated git repository of 10,000 files
 * (40 lines each, 100 per directory, plus an ignored node_modules of 2,000 files the scan must skip). Measured
 * through SessionCheckpoints.beforeRun and its after-step, with no command between them (the command's own time
 * is not the snapshot's): the first call of a session (it copies the project into the store), a call with
 * nothing changed (the steady state), and a call after 10 files changed. Run: `npx tsx bench/checkpoint-bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { bashTool } from '../src/tools/bash.js';

const FILES = Number(process.env.CHECKPOINT_BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.CHECKPOINT_BENCH_RUNS ?? 7);

function text(index: number, salt = 0): string {
  const lines: string[] = [];
  for (let line = 0; line < 40; line += 1) lines.push(`export const v${index}_${line} = ${line * 7 + salt};`);
  return `${lines.join('\n')}\n`;
}

async function tree(root: string): Promise<void> {
  for (let dir = 0; dir * 100 < FILES; dir += 1) {
    const path = join(root, 'src', `d${dir}`);
    await mkdir(path, { recursive: true });
    const count = Math.min(100, FILES - dir * 100);
    await Promise.all(Array.from({ length: count }, (_, i) => writeFile(join(path, `f${i}.ts`), text(dir * 100 + i))));
  }
  await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
  await Promise.all(
    Array.from({ length: 2000 }, (_, i) => writeFile(join(root, 'node_modules', 'pkg', `m${i}.js`), text(i))),
  );
  await writeFile(join(root, '.gitignore'), 'node_modules/\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
}

async function timeCall(store: SessionCheckpoints, id: string): Promise<number> {
  const started = performance.now();
  const after = await store.beforeRun(
    { id, name: 'Bash', input: { command: 'true' }, source: 'model' },
    bashTool,
    new AbortController().signal,
  );
  await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mca-checkpoint-bench-')));
  const root = join(base, 'project');
  await mkdir(root);
  try {
    await tree(root);
    const store = new SessionCheckpoints(join(base, 'store'), root);
    const first = await timeCall(store, 'toolu_first');
    const steady: number[] = [];
    for (let run = 0; run < RUNS; run += 1) steady.push(await timeCall(store, `toolu_s${run}`));
    const changed: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => writeFile(join(root, 'src', `d${i}`, `f${run}.ts`), text(i, run + 1))),
      );
      changed.push(await timeCall(store, `toolu_c${run}`));
    }
    const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
    const line = (label: string, ms: number): string => `${label.padEnd(46)} ${ms.toFixed(0).padStart(6)} ms`;
    process.stdout.write(
      [
        `Checkpoint snapshot per Bash call, ${FILES} files (+2,000 ignored), ${RUNS} runs, load average ${load}`,
        line('first call of a session (copies the project)', first),
        line('median, nothing changed', median(steady)),
        line('median, 10 files changed before the call', median(changed)),
        `${'store size after the runs'.padEnd(46)} ${((await store.blobs.size()) / 1e6).toFixed(1).padStart(6)} MB`,
      ].join('\n') + '\n',
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
