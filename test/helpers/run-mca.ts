/** Runs the built `mca` command (dist/cli/mca.cjs, the package's bin) as a child process, as users and scripts do. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MCA_BIN = fileURLToPath(new URL('../../dist/cli/mca.cjs', import.meta.url));

export interface McaRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface McaOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdin?: string;
  /** Kill with SIGKILL after this long (default 30 s) so a hung binary fails the test instead of hanging it. */
  timeoutMs?: number;
  onSpawn?: (child: ChildProcess) => void;
  /** Another built entry to run instead of the bin (e.g. dist/cli/main.js directly). */
  entry?: string;
}

/** A clean environment: nothing from the developer's shell leaks in (no real key, no real MCA_HOME). */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT'];
  return Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])));
}

export function runMca(args: string[], options: McaOptions = {}): Promise<McaRun> {
  const entry = options.entry ?? MCA_BIN;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  const env: Record<string, string> = { ...baseEnv() };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
    options.onSpawn?.(child);
  });
}
