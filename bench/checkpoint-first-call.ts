/**
 * The first Bash call of a session in a fresh process, as a real session pays it (no code compiled yet, unlike the
 * in-process A/B of checkpoint-bench.ts, whose sides run their code several times): a generated, committed git
 * repository of `--files` files (40 lines each, 100 per directory, plus an ignored node_modules/ of 2,000 files),
 * then pairs of child processes, this tree's and the `--base` tree's in alternating order, each timing one
 * SessionCheckpoints.beforeRun and its after-step on a fresh store. Prints the medians (wall, this process's CPU,
 * git's CPU). `npx tsx bench/checkpoint-first-call.ts --base <tree with src/> [--files 10000] [--pairs 8]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionCheckpoints as SessionCheckpointsType } from '../src/checkpoints/session-checkpoints.js';
import type { bashTool as bashToolType } from '../src/tools/processes/bash.js';

interface Sample {
  wallMs: number;
  cpuMs: number;
  gitMs: number;
}

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

/** In the child: one first call of a fresh session of the tree at `tree` on `root`, printed as JSON. */
async function child(tree: string, root: string, store: string): Promise<void> {
  const { SessionCheckpoints } = (await import(
    pathToFileURL(join(tree, 'src/checkpoints/session-checkpoints.ts')).href
  )) as { SessionCheckpoints: typeof SessionCheckpointsType };
  const { bashTool } = (await import(pathToFileURL(join(tree, 'src/tools/processes/bash.ts')).href)) as {
    bashTool: typeof bashToolType;
  };
  const gitCpu = (): number => {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[13]) + Number(fields[14])) * 10;
  };
  const session = new SessionCheckpoints(store, root);
  const git = gitCpu();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const after = await session.beforeRun(
    { id: 'toolu_first', name: 'Bash', input: { command: 'true' }, source: 'model' },
    bashTool,
    new AbortController().signal,
  );
  await after?.({ status: 'success', data: {}, text: '', stats: { durationMs: 0 }, context: {} });
  const used = process.cpuUsage(cpu);
  const sample: Sample = {
    wallMs: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    gitMs: gitCpu() - git,
  };
  process.stdout.write(JSON.stringify(sample));
}

async function fixture(root: string, files: number): Promise<void> {
  for (let dir = 0; dir * 100 < files; dir += 1) {
    const path =
      dir < 100 ? join(root, 'src', `d${dir}`) : join(root, 'pkg', `p${Math.floor(dir / 100)}`, `d${dir % 100}`);
    await mkdir(path, { recursive: true });
    const count = Math.min(100, files - dir * 100);
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        writeFile(join(path, `f${i}.ts`), `export const v${dir * 100 + i} = ${i};\n`.repeat(40)),
      ),
    );
  }
  await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
  await Promise.all(
    Array.from({ length: 2000 }, (_, i) => writeFile(join(root, 'node_modules', 'pkg', `m${i}.js`), `${i}\n`)),
  );
  await writeFile(join(root, '.gitignore'), 'node_modules/\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
  // Committed 2.1 s after the files were written, as in a repository checked out earlier (the index vouches).
  await new Promise((done) => setTimeout(done, 2100));
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=b@e.nch', '-c', 'user.name=bench', 'commit', '-qm', 'tree'], { cwd: root });
  execFileSync('sync');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(process.argv[3] ?? '', process.argv[4] ?? '', process.argv[5] ?? '');
  const files = Number(arg('--files', '10000'));
  const pairs = Number(arg('--pairs', '8'));
  const sides: Array<[string, string]> = [
    ['this', resolve(import.meta.dirname, '..')],
    ['base', resolve(arg('--base', ''))],
  ];
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mca-first-call-')));
  const root = join(base, 'project');
  await mkdir(root);
  try {
    await fixture(root, files);
    const loadStart = loadavg()[0] ?? 0;
    const samples = new Map<string, Sample[]>(sides.map(([name]) => [name, []]));
    for (let pair = 0; pair < pairs; pair += 1) {
      for (const [name, tree] of pair % 2 === 0 ? sides : [...sides].reverse()) {
        const store = join(base, `store-${name}-${pair}`);
        const out = execFileSync(
          process.execPath,
          ['--import', 'tsx', import.meta.filename, '--child', tree, root, store],
          { encoding: 'utf8' },
        );
        samples.get(name)?.push(JSON.parse(out) as Sample);
      }
    }
    const row = (name: string): string => {
      const list = samples.get(name) ?? [];
      const at = (key: keyof Sample): string => `${Math.round(median(list.map((sample) => sample[key])))} ms`;
      return `| ${name} | ${list.length} | ${at('wallMs')} | ${at('cpuMs')} | ${at('gitMs')} |`;
    };
    process.stdout.write(
      [
        `${files.toLocaleString('en-US')} files, load ${loadStart.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`,
        '| tree | runs | wall | CPU (mca) | CPU (git) |',
        '| --- | --- | --- | --- | --- |',
        row('base'),
        row('this'),
        '',
      ].join('\n'),
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
