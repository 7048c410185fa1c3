/**
 * `npx tsx bench/hooks-bench.ts [--runs N]`: what hooks add per tool call. The engine runs the PreToolUse hooks of
 * one Bash call (a `sh -c` spawn per distinct command) for: no hook configured (the session has no engine), one
 * hook that exits 0, one that reads its stdin and answers JSON, and three such hooks in parallel. Prints median,
 * p95 and min in milliseconds. Measures only; asserts nothing.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookCommand } from '../src/hooks/hook-config.js';
import { HookEngine } from '../src/hooks/hook-engine.js';
import { SessionHooks } from '../src/hooks/session-hooks.js';
import { timeRuns, type Timing } from './lib/timing.js';
import { machine } from './lib/machine.js';

const INFO = { sessionId: 'bench', transcriptPath: '/dev/null', cwd: '/', permissionMode: 'default' };
const CALL = {
  id: 'toolu_bench',
  name: 'Bash',
  input: { command: 'npm test', timeout_ms: 120000 },
  source: 'model' as const,
};

function hook(command: string): HookCommand {
  return {
    event: 'PreToolUse',
    matcher: 'Bash',
    command,
    timeoutSec: 60,
    source: 'bench',
    scope: 'user',
    key: 'bench',
  };
}

function sessionHooks(root: string, commands: string[]): SessionHooks {
  const engine = commands.length > 0 ? new HookEngine(commands.map(hook), { projectRoot: root }) : undefined;
  const loaded = { active: commands.map(hook), pending: [], notices: [] };
  return new SessionHooks(
    loaded,
    engine,
    () => INFO,
    () => undefined,
  );
}

function row(name: string, timing: Timing): string {
  return `${name.padEnd(44)} median ${timing.medianMs.toFixed(2)} ms  p95 ${timing.p95Ms.toFixed(2)} ms  min ${timing.minMs.toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--runs');
  const runs = at > 0 ? Number(process.argv[at + 1]) : 50;
  const root = mkdtempSync(join(tmpdir(), 'mca-hooks-bench-'));
  try {
    const answer = join(root, 'answer.sh');
    writeFileSync(
      answer,
      '#!/bin/sh\ncat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'\n',
    );
    chmodSync(answer, 0o755);
    const cases: Array<[string, string[]]> = [
      ['no hooks configured', []],
      ['one hook: exit 0', ['exit 0']],
      ['one hook: script reads stdin, answers JSON', [answer]],
      ['three such hooks (parallel)', [answer, `${answer} 2`, `${answer} 3`]],
    ];
    process.stdout.write(
      `hooks bench: PreToolUse per Bash call, ${runs} runs each (${machine().cpu}, load ${machine().load})\n`,
    );
    for (const [name, commands] of cases) {
      const hooks = sessionHooks(root, commands);
      process.stdout.write(`${row(name, await timeRuns(runs, () => hooks.beforeTool(CALL), 3))}\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
