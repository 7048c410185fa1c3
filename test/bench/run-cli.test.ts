import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StartupResult } from '../../bench/startup-bench.js';

const root = resolve(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

/** One small recording in the bench/data format: a task, a file view, a final submit. */
function recording(): string {
  return [
    { type: 'user', text: 'Fix the crash in app/main.py' },
    { type: 'assistant', text: 'Look at it' },
    { type: 'tool_call', tool: 'bash', input: { command: 'cat app/main.py' } },
    { type: 'tool_result', output: '<returncode>0</returncode>\n<output>\nprint(1)\n</output>' },
    { type: 'assistant', text: 'Now check it again' },
    { type: 'tool_call', tool: 'bash', input: { command: 'nl -ba app/main.py' } },
    { type: 'tool_result', output: '<returncode>0</returncode>\n<output>\n     1\tprint(1)\n</output>' },
    { type: 'tool_call', tool: 'bash', input: { command: 'submit' } },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n');
}

describe('npm run bench --data / --json', () => {
  it('replays another directory of recordings and writes every figure as JSON', () => {
    const data = mkdtempSync(join(tmpdir(), 'bench-data-'));
    writeFileSync(join(data, 'one.jsonl'), recording());
    const json = join(mkdtempSync(join(tmpdir(), 'bench-json-')), 'out.json');
    execFileSync(tsx, ['bench/run.ts', '--only', 'replay', '--data', data, '--json', json], { cwd: root });
    const results = JSON.parse(readFileSync(json, 'utf8')) as {
      replay: {
        dataDir: string;
        sessions: number;
        steps: number;
        workloads: Array<{ slug: string; byStrategy: Record<string, { model: { calls: number; dollars: number } }> }>;
      };
    };
    expect(results.replay.dataDir).toBe(data);
    expect(results.replay.sessions).toBe(1);
    expect(results.replay.steps).toBe(3);
    const alone = results.replay.workloads.find((workload) => workload.slug === 'alone-200k');
    expect(Object.keys(alone?.byStrategy ?? {})).toEqual([
      'mca',
      'mca-native',
      'claude-code',
      'codex',
      'opencode',
      'gemini-cli',
      'naive',
    ]);
    expect(alone?.byStrategy.mca?.model.calls).toBe(3);
    // Both protocols replay every step; the native one sends the same calls with its own wire form.
    expect(alone?.byStrategy['mca-native']?.model.calls).toBe(3);
    expect(alone?.byStrategy.codex?.model.dollars).toBeGreaterThan(0);
    // Other data never replaces the repository's report.
    expect(readFileSync(join(root, 'bench', 'results', 'partial.md'), 'utf8')).toContain(`from \`${data}\``);
  });

  it('refuses a directory without recordings in one line', () => {
    const empty = mkdtempSync(join(tmpdir(), 'bench-empty-'));
    const run = spawnSync(tsx, ['bench/run.ts', '--only', 'replay', '--data', empty], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      `bench: --data ${empty}: not a directory with *.jsonl recordings (see bench/data/README.md)`,
    );
  });

  it('refuses a --runs that is not a whole number of rounds in one line', () => {
    for (const runs of ['0', '2.5', 'many']) {
      const run = spawnSync(tsx, ['bench/run.ts', '--only', 'startup', '--runs', runs], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim()).toBe(`bench: --runs ${runs}: give a whole number of rounds, 1 or more`);
    }
  });
});

describe('npm run bench --only startup', () => {
  it('runs the packed package next to both baselines and reports figures that hang together', () => {
    const json = join(mkdtempSync(join(tmpdir(), 'bench-json-')), 'startup.json');
    // The bench packs the repository with npm: a throwaway npm cache keeps the user's own untouched.
    const npmCache = mkdtempSync(join(tmpdir(), 'bench-npm-cache-'));
    execFileSync(tsx, ['bench/run.ts', '--only', 'startup', '--runs', '1', '--json', json], {
      cwd: root,
      env: { ...process.env, npm_config_cache: npmCache },
    });
    const { startup } = JSON.parse(readFileSync(json, 'utf8')) as { startup: StartupResult };
    for (const value of [startup.nodeMs, startup.versionMs, startup.helpMs, startup.perStepAllInMs]) {
      expect(value).toBeGreaterThan(0);
    }
    for (const run of [startup.script, startup.oneShot, startup.multiStep]) {
      // The first request arrives during the run; the server's own time is a part of the wall time.
      expect(run.firstRequestMs).toBeGreaterThan(0);
      expect(run.firstRequestMs).toBeLessThan(run.wallMs);
      expect(run.serverMs).toBeGreaterThan(0);
      expect(run.netMs).toBeCloseTo(run.wallMs - run.serverMs, 6);
      expect(run.exitMs).toBeGreaterThan(0);
      expect(run.exitMs).toBeLessThan(run.wallMs - run.firstRequestMs);
      expect(run.peakRssMb).toBeGreaterThan(10);
    }
    // Both runs measured the fake server's time (comparing the two is a timing race on a loaded machine: a clean-clone
    // CI run saw the 8-step figure below the one-shot's).
    expect(startup.multiStep.serverMs).toBeGreaterThan(0);
    expect(startup.oneShot.serverMs).toBeGreaterThan(0);
    // One gap per tool step, named after the tool the answer asked for, each inside the run.
    expect(startup.stepGaps.map((gap) => gap.tool)).toEqual(['LS', 'Glob', 'Read', 'Grep', 'Read', 'LS', 'Read']);
    for (const gap of startup.stepGaps) {
      expect(gap.ms).toBeGreaterThan(0);
      expect(gap.ms).toBeLessThan(startup.multiStep.wallMs);
    }
    const meanGap = startup.stepGaps.reduce((sum, gap) => sum + gap.ms, 0) / 7;
    expect(startup.perStepMs).toBeCloseTo(meanGap, 6);
    expect(startup.perStepByDifferenceMs).toBeCloseTo((startup.multiStep.netMs - startup.oneShot.netMs) / 7, 6);
    expect(startup.package).toMatchObject({ dependencies: 0, files: expect.any(Number) as number });
    expect(startup.package.unpackedBytes).toBeGreaterThan(startup.package.packedBytes);
    const report = readFileSync(join(root, 'bench', 'results', 'partial.md'), 'utf8');
    expect(report).toContain('## 3. Start-up');
    expect(report).toContain('| runtime dependencies (its package.json) | 0 |');
  });
});
