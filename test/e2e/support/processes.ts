/**
 * Finds live processes by command line and working directory. The working directory is what makes a match ours:
 * every e2e run uses its own temp project, so a `sleep 30` of some other program on the machine never counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  args: string[];
  cwd: string | undefined;
}

function readProc(pid: number): ProcessInfo | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const args = raw.split('\0').filter((arg) => arg !== '');
    if (args.length === 0) return undefined; // a zombie or a kernel thread
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      cwd = undefined;
    }
    return { pid, args, cwd };
  } catch {
    return undefined; // it exited while we looked
  }
}

/** Without /proc (macOS): `ps` gives the command line only, so the cwd filter cannot apply there. */
function fromPs(): ProcessInfo[] {
  const result = spawnSync('ps', ['-axo', 'pid=,args='], { encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), args: (match[2] ?? '').split(/\s+/), cwd: undefined }));
}

export function listProcesses(): ProcessInfo[] {
  if (!existsSync('/proc/self/cmdline')) return fromPs();
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** Live processes whose command line contains `text` and, where known, whose cwd is `cwd`. */
export function processesMatching(text: string, cwd: string): ProcessInfo[] {
  return listProcesses().filter(
    (info) => info.pid !== process.pid && info.args.join(' ').includes(text) && (info.cwd ?? cwd) === cwd,
  );
}

/**
 * Waits (bounded, about 10 s) until no live process matches, then returns what is left: a process mca killed on its
 * way out leaves on the kernel's schedule, not the test's.
 */
export async function processesGone(text: string, cwd: string): Promise<ProcessInfo[]> {
  for (let tries = 0; tries < 200; tries++) {
    const left = processesMatching(text, cwd);
    if (left.length === 0) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processesMatching(text, cwd);
}
