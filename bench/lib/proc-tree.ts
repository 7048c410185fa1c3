/**
 * Reads a process tree from /proc (Linux): the descendants of a pid and their resident memory, open file
 * descriptors and count. For benches that add up what several programs hold at once; a process that ends while it
 * is read counts as gone.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** pid → parent pid of every process now. */
function parents(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The name field may hold spaces and parentheses: the parent pid is the 2nd field after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.set(Number(entry), ppid);
    } catch {
      // ended while listed
    }
  }
  return table;
}

/** The pids of `roots` and all their descendants. */
export function treePids(roots: readonly number[]): number[] {
  const table = parents();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const seen: number[] = [];
  const queue = roots.filter((pid) => table.has(pid));
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    seen.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return seen;
}

/** VmRSS of one process in kB (0 when it is gone or has none, as a zombie). */
export function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Open file descriptors of one process (0 when it is gone). */
export function fdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** Sum of VmRSS over `roots` and their descendants, in kB. */
export function treeRssKb(roots: readonly number[]): number {
  return treePids(roots).reduce((sum, pid) => sum + rssKb(pid), 0);
}
