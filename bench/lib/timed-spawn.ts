/**
 * Spawns one command and measures it: wall time from spawn to exit, and on request its peak RSS. Peak RSS comes
 * from `/usr/bin/time -f %M -o FILE` (the kernel's maximum resident set size of the child, written to a file so
 * it never mixes with the child's stderr) when that binary exists; otherwise from the child's VmHWM in
 * /proc/<pid>/status, sampled every 5 ms until it exits (may miss a final spike).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TIME_BIN = '/usr/bin/time';

export type RssMethod = '/usr/bin/time' | 'VmHWM';

export const RSS_METHOD: RssMethod = existsSync(TIME_BIN) ? '/usr/bin/time' : 'VmHWM';

export interface TimedRun {
  wallMs: number;
  /** performance.now() when the child was spawned (the same clock as the fake server's timestamps). */
  spawnedAt: number;
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssMb?: number;
}

export interface TimedSpawnOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Measure peak RSS; `scratch` is a directory where /usr/bin/time may write its report. */
  rss?: { scratch: string };
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function timedSpawn(command: string, args: readonly string[], options: TimedSpawnOptions): Promise<TimedRun> {
  const useTime = options.rss !== undefined && RSS_METHOD === '/usr/bin/time';
  const report = options.rss ? join(options.rss.scratch, 'time-report') : '';
  const [bin, argv] = useTime ? [TIME_BIN, ['-f', '%M', '-o', report, command, ...args]] : [command, [...args]];
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.now();
    const child = spawn(bin, argv, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKb: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const sampler =
      options.rss !== undefined && !useTime
        ? setInterval(() => {
            const now = vmHwmKb(child.pid ?? 0);
            if (now !== undefined) peakKb = Math.max(peakKb ?? 0, now);
          }, 5)
        : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - spawnedAt;
      if (sampler) clearInterval(sampler);
      if (useTime) {
        const kb = Number(readFileSync(report, 'utf8').trim().split('\n').at(-1));
        if (Number.isFinite(kb) && kb > 0) peakKb = kb;
      }
      resolve({
        wallMs,
        spawnedAt,
        code,
        stdout,
        stderr,
        ...(peakKb !== undefined ? { peakRssMb: peakKb / 1024 } : {}),
      });
    });
  });
}
