/**
 * The one answer to "is the process that left this lock or temp file still running?". A pid alone is not enough:
 * pids are reused, so a lock left by a crashed mca may name a pid that now belongs to another process (after a
 * reboot, often one started at the same point of boot). Every owner mca records is a stamp: the pid and the
 * process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot). A stamp is alive when the pid
 * exists and, where both start times are known, they are the same. Off Linux (no /proc) the pid check stands alone.
 */
import { readFileSync } from 'node:fs';

export interface ProcessStamp {
  pid: number;
  /** The process's start time; undefined when it could not be read (off Linux) or an older mca wrote the stamp. */
  startTime?: string;
}

/**
 * The fields of a /proc/<pid>/stat line after the parenthesised command name (which may hold spaces and
 * parentheses itself): `state ppid pgrp session …`, so field N of proc(5) is index N - 3 here.
 */
export function procStatFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Field 22 of /proc/<pid>/stat: when the process started; undefined off Linux or for a gone process. */
export function processStartTime(pid: number): string | undefined {
  try {
    const field = procStatFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[19];
    return field !== undefined && /^\d+$/.test(field) ? field : undefined;
  } catch {
    return undefined;
  }
}

let own: ProcessStamp | undefined;

/** This process's stamp (read once). */
export function ownStamp(): ProcessStamp {
  if (own === undefined) {
    const startTime = processStartTime(process.pid);
    own = startTime === undefined ? { pid: process.pid } : { pid: process.pid, startTime };
  }
  return own;
}

/** Whether the process a stamp names still runs: the pid exists (one we may not signal exists too), same start. */
export function stampAlive(stamp: ProcessStamp): boolean {
  if (!Number.isSafeInteger(stamp.pid) || stamp.pid <= 0) return false;
  try {
    process.kill(stamp.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (stamp.startTime === undefined) return true;
  const started = processStartTime(stamp.pid);
  return started === undefined || started === stamp.startTime;
}

/** A stamp as one token for a file name or a lock line: `<pid>` or `<pid>_<start time>`. */
export function stampToken(stamp: ProcessStamp = ownStamp()): string {
  return stamp.startTime === undefined ? String(stamp.pid) : `${stamp.pid}_${stamp.startTime}`;
}

/** Reads a token written by stampToken (or a bare pid, as older mca versions wrote); undefined for anything else. */
export function parseStampToken(token: string | undefined): ProcessStamp | undefined {
  const match = /^(\d+)(?:_(\d+))?$/.exec(token ?? '');
  if (!match) return undefined;
  const pid = Number(match[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return match[2] === undefined ? { pid } : { pid, startTime: match[2] };
}
