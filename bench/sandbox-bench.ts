/**
 * `npx tsx bench/sandbox-bench.ts [--runs N]`: what the Bash sandbox (src/sandbox) costs and saves.
 * 1. Added time per Bash call: the same command spawned as Bash spawns it outside the box (`bash -c`) and inside it
 *    (bubblewrap, socat relays, the seccomp layer: the box's real command line), alternated call by call so the
 *    machine's load hits both alike; wall time from spawn to exit. The box's one-off set-up (private directory,
 *    proxy) is timed apart, as the first call.
 * 2. Questions: a scripted 30-step task's Bash calls (read, build, test, git, a network fetch and its retry) through
 *    the real Bash `prepare` and decision point with a broker that counts and says yes: without the box and no
 *    rules, without the box and typical allow rules, and with the box (autoAllowBashIfSandboxed).
 * Prints median, p95 and min in milliseconds and the counts. Measures only; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecisionPoint } from '../src/driver/decision-point.js';
import { PermissionPolicy } from '../src/permissions/policy.js';
import { parseRule, type PermissionRule } from '../src/permissions/rule.js';
import { SandboxSwitch } from '../src/sandbox/sandbox-switch.js';
import { resolveSandbox } from '../src/sandbox/sandbox-settings.js';
import { bashTool } from '../src/tools/processes/bash.js';
import type { ToolContext } from '../src/tools/registry/tool-context.js';
import { machine } from './lib/machine.js';
import { median, percentile } from './lib/stats.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 40;

function timeSpawn(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

function stats(values: number[]): string {
  const round = (value: number): string => value.toFixed(1);
  return `median ${round(median(values))} · p95 ${round(percentile(values, 95))} · min ${round(Math.min(...values))}`;
}

async function perCall(root: string): Promise<void> {
  const box = new SandboxSwitch(resolveSandbox([{ file: 'bench', value: { enabled: true }, mayWiden: true }]), {
    projectRoot: root,
    roots: () => [],
    home: join(root, '..', 'home'),
    mcaHome: join(root, '..', 'home', '.mca'),
  });
  const unavailable = await box.start();
  if (unavailable !== undefined) {
    console.log(`per call: skipped (${unavailable})`);
    return;
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, '..', 'home') };
  for (const command of ['true', 'echo hi > f.txt && cat f.txt >/dev/null']) {
    const setupStart = process.hrtime.bigint();
    const first = await box.spawn(command, '/bin/bash', env);
    const setupMs = Number(process.hrtime.bigint() - setupStart) / 1e6;
    const inside: number[] = [];
    const outside: number[] = [];
    for (let round = 0; round < runs; round += 1) {
      const boxed = round === 0 ? first : await box.spawn(command, '/bin/bash', env);
      const order = round % 2 === 0 ? ['in', 'out'] : ['out', 'in'];
      for (const which of order) {
        if (which === 'in') inside.push(await timeSpawn(boxed.file, boxed.args, boxed.env, root));
        else outside.push(await timeSpawn('/bin/bash', ['-c', command], env, root));
      }
      await boxed.finish({ failed: false, stdout: '', stderr: '' });
    }
    const added = median(inside) - median(outside);
    console.log(`per call \`${command}\` (${runs} interleaved pairs, ms):`);
    console.log(`  outside the box: ${stats(outside)}`);
    console.log(`  inside the box:  ${stats(inside)}`);
    console.log(
      `  added per call (median difference): ${added.toFixed(1)} ms; box set-up on first use ${setupMs.toFixed(1)} ms`,
    );
  }
  await box.close();
}

/** A 30-step task's Bash calls; `retry` marks a call the model repeats outside the box after the box blocked it. */
const TASK: Array<{ command: string; retry?: boolean }> = [
  { command: 'ls' },
  { command: 'cat package.json' },
  { command: 'git status' },
  { command: 'git log --oneline -5' },
  { command: 'npm install' },
  { command: 'npm test' },
  { command: 'cat src/index.ts' },
  { command: "grep -rn 'TODO' src" },
  { command: 'npm run build' },
  { command: 'npm test -- --run parser' },
  { command: "sed -i 's/old/new/' src/index.ts" },
  { command: 'npm test' },
  { command: 'git diff' },
  { command: 'mkdir -p src/lib && touch src/lib/util.ts' },
  { command: 'npm run lint' },
  { command: 'npx prettier --write src' },
  { command: 'npm test' },
  { command: 'curl -sS https://api.github.com/repos/o/r/issues/1', retry: true },
  { command: 'ls src/lib' },
  { command: 'node scripts/gen.js' },
  { command: 'npm run typecheck' },
  { command: 'git add -A' },
  { command: "git commit -m 'fix parser'" },
  { command: 'npm test' },
  { command: 'rm -rf dist' },
  { command: 'npm run build' },
  { command: 'du -sh dist' },
  { command: 'git push', retry: true },
  { command: 'git status' },
  { command: 'echo done' },
];

async function questions(root: string, mode: 'plain' | 'rules' | 'box'): Promise<{ asked: number; calls: number }> {
  const rules: PermissionRule[] = [];
  if (mode === 'rules') {
    for (const text of [
      'Bash(npm test:*)',
      'Bash(npm run:*)',
      'Bash(git status)',
      'Bash(git diff:*)',
      'Bash(ls:*)',
      'Bash(cat:*)',
    ]) {
      const parsed = parseRule(text, 'allow', 'bench');
      if (parsed.ok) rules.push(parsed.rule);
    }
  }
  let asked = 0;
  const point = createDecisionPoint({
    policy: new PermissionPolicy(rules, { projectRoot: root }),
    mode: () => 'default',
    broker: { ask: () => Promise.resolve(((asked += 1), { approved: true })), cancel: () => undefined },
  });
  const box =
    mode === 'box'
      ? new SandboxSwitch(resolveSandbox([{ file: 'bench', value: { enabled: true }, mayWiden: true }]), {
          projectRoot: root,
          roots: () => [],
          home: root,
          mcaHome: root,
        })
      : undefined;
  await box?.start();
  let calls = 0;
  for (const step of TASK) {
    const tries = mode === 'box' && step.retry === true ? [false, true] : [false];
    for (const unboxed of tries) {
      const input = {
        command: step.command,
        timeout_ms: 120000,
        ...(unboxed ? { dangerouslyDisableSandbox: true } : {}),
      };
      const ctx = {
        projectRoot: root,
        source: 'model',
        callId: 'b',
        ...(box ? { box } : {}),
      } as unknown as ToolContext;
      const plan = await bashTool.prepare(input, ctx);
      if (!plan.ok || !plan.request) throw new Error('no request');
      calls += 1;
      await point.decide({ id: 'b', name: 'Bash', input, source: 'model' }, { ...plan.request, kind: 'exec' });
    }
  }
  await box?.close();
  return { asked, calls };
}

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-sandbox-bench-')));
const root = join(base, 'project');
mkdirSync(root);
mkdirSync(join(base, 'home'));
try {
  const host = machine();
  console.log(
    `# Sandbox bench · ${new Date().toISOString().slice(0, 10)} · ${host.cores} cores ${host.cpu} · load ${host.load} · Node ${host.node}`,
  );
  await perCall(root);
  for (const mode of ['plain', 'rules', 'box'] as const) {
    const { asked, calls } = await questions(root, mode);
    const label = {
      plain: 'no box, no rules',
      rules: 'no box, 6 typical allow rules',
      box: 'box on (autoAllowBashIfSandboxed)',
    }[mode];
    console.log(`questions, 30-step task, ${label}: ${asked} of ${calls} Bash calls asked`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
