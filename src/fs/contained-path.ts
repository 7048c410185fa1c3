/**
 * Where an open descriptor really is, and whether a path lies inside a root. A leaf module (no imports from
 * src/) so config, context and tools share one definition of "inside".
 */
import { readlinkSync } from 'node:fs';
import { sep } from 'node:path';

/** True when `candidate` is `root` or below it (both absolute, already resolved). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return candidate.startsWith(prefix);
}

/**
 * The real path of an open descriptor, read from the kernel (`/proc/self/fd/N` on Linux): what was actually
 * opened, whatever happened to the path since. Undefined where the system has no such view; callers then rely
 * on the path checks done before opening.
 */
export function descriptorPath(fd: number): string | undefined {
  try {
    const target = readlinkSync(`/proc/self/fd/${fd}`);
    return target.startsWith('/') ? target.replace(/ \(deleted\)$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** True when the kernel says the descriptor is inside `root`, or when it cannot say (see descriptorPath). */
export function descriptorInside(fd: number, root: string): boolean {
  const actual = descriptorPath(fd);
  return actual === undefined || isInside(root, actual);
}
