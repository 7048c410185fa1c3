import { readdirSync, readFileSync } from 'node:fs';
import { procStatFields } from '../../fs/process-liveness.js';
import { readdir, readFile } from 'node:fs/promises';

const POLL_MS = 25;

/** Process groups of commands still running (Bash), so a terminating mca can end them too. */
const liveGroups = new Set<number>();

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/**
 * Environment markers (`NAME=value`) of the children mca started that may leave helpers behind (stdio MCP servers):
 * every process whose environment holds one, however it detached (its own group or session, a double fork), is a
 * helper of that child and ends with mca.
 */
const liveMarkers = new Set<string>();

export function trackMarker(marker: string): void {
  liveMarkers.add(marker);
}

/** SIGKILLs every live process whose environment holds `marker` (read from /proc; none without it). Synchronous. */
export function killMarked(marker: string): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker)) {
        process.kill(Number(entry), 'SIGKILL');
      }
    } catch {
      // gone, or not ours to read
    }
  }
}

export function untrackMarker(marker: string): void {
  killMarked(marker);
  liveMarkers.delete(marker);
}

/** Ends every tracked group (SIGTERM, then SIGKILL after the grace period). */
export async function terminateTrackedGroups(graceMs = 2000): Promise<void> {
  await Promise.all([...liveGroups].map((pgid) => terminateGroup(pgid, graceMs)));
}

/** Last resort on the way out (process 'exit' is synchronous): SIGKILL whatever is still tracked. */
export function killTrackedGroupsNow(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
  for (const marker of liveMarkers) killMarked(marker);
  liveMarkers.clear();
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

/** One row of /proc per process: its pid, state, parent and process group; undefined without /proc. */
async function processTable(): Promise<Array<{ pid: number; state: string; ppid: number; pgid: number }> | undefined> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  const rows: Array<{ pid: number; state: string; ppid: number; pgid: number }> = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state = '', ppid, pgid] = procStatFields(stat);
    rows.push({ pid: Number(entry), state, ppid: Number(ppid), pgid: Number(pgid) });
  }
  return rows;
}

/**
 * Whether any live (non-zombie) process remains in the group. kill(-pgid, 0) alone is not enough: orphaned
 * children that died are zombies until init reaps them, and some container inits never do.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  const table = await processTable();
  // Without /proc the kill(0) answer stands.
  if (table === undefined) return true;
  return table.some((entry) => entry.pgid === pgid && entry.state !== 'Z');
}

/**
 * The process groups of `pid`'s descendants other than its own: a helper that a child moved into its own group
 * or session (`detached`, setsid) is not reached by signalling the child's group. Read from /proc while `pid` is
 * still alive (an orphan is re-parented to init and cannot be found after); empty without /proc.
 */
export async function descendantGroups(pid: number): Promise<number[]> {
  const children = new Map<number, Array<{ pid: number; pgid: number }>>();
  for (const entry of (await processTable()) ?? []) {
    const list = children.get(entry.ppid) ?? [];
    list.push({ pid: entry.pid, pgid: entry.pgid });
    children.set(entry.ppid, list);
  }
  const groups = new Set<number>();
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (child.pgid !== pid) groups.add(child.pgid);
      queue.push(child.pid);
    }
  }
  return [...groups];
}

async function waitGone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (!(await groupAlive(pgid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Ends a whole process group: SIGTERM, then SIGKILL for whatever is left after `graceMs` (a process that traps
 * or ignores SIGTERM still dies). Resolves once no live member remains (or after a last bounded wait).
 */
export async function terminateGroup(pgid: number, graceMs = 2000): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, 2000);
}
