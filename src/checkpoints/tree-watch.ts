/**
 * Which paths of a project changed between two checkpoint scans, told by the kernel (inotify, through one
 * non-recursive `fs.watch` per directory) instead of an lstat of every file. Contract:
 * - `take()` answers every path that had an event since the last `take()` (a superset of what changed: an event
 *   names an entry of a watched directory; what it did is found by the caller's lstat), or `full` with why the
 *   events cannot be trusted for this window, so the caller scans everything.
 * - Every event queued before `take()` began is counted: `take()` first writes a barrier file in a directory of its
 *   own and waits for that file's event. libuv reads all watches of a thread through one inotify descriptor, whose
 *   queue is first in, first out, so the barrier's event comes after every event the command's writes queued.
 * - A lost event is never silent: the kernel drops events only when its queue (max_queued_events) is full, and a
 *   full queue means at least that many events reach us; a window with half that many is answered `full`.
 * - Rule changes (a `.gitignore`, info/exclude, a `.git` appearing, the root itself moving) are answered `full`
 *   too: which files are candidates may have changed everywhere. A change of git's index is answered `relist`.
 * Watches are unref'd (they never keep mca alive) and closed with `close()`.
 */
import { readFileSync, unlinkSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';

/** How long `take()` waits for its barrier's event before it gives up on the window (answering `full`). */
const BARRIER_MS = 2000;

/** The kernel's per-descriptor event queue length (events beyond it are dropped). */
function maxQueuedEvents(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isSafeInteger(value) && value > 0 ? value : 16384;
  } catch {
    return 16384;
  }
}

export type Taken =
  | {
      full: false;
      dirty: Set<string>;
      /**
       * Watched directories that had an event on themselves (removed, moved): a directory made again at the same
       * path may reuse the old inode number, so its inode alone cannot tell it from the old one.
       */
      replaced: Set<string>;
      /** git's index changed: which files are tracked may have changed (the caller lists them again). */
      relist: boolean;
    }
  | { full: true; reason: string };

interface Watched {
  watcher: FSWatcher;
  ino: number;
}

export class TreeWatch {
  /** Project-relative directory ("" is the root) → its watch and the inode it was made on. */
  private readonly dirs = new Map<string, Watched>();
  /** Watches outside the tree: git's metadata and the barrier's directory. */
  private readonly others: FSWatcher[] = [];
  private dirty = new Set<string>();
  private replaced = new Set<string>();
  private relist = false;
  private broken: string | undefined;
  private events = 0;
  private readonly eventLimit = Math.floor(maxQueuedEvents() / 2);
  private barrierSeq = 0;
  private onBarrier: ((name: string) => void) | undefined;

  constructor(
    readonly root: string,
    /** A directory of mca's own (the session's checkpoint directory) where barrier files are written. */
    private readonly barrierDir: string,
  ) {
    this.barrierWatched = this.watchOther(barrierDir, (name) => this.onBarrier?.(name), false);
  }

  /** False when the barrier's directory could not be watched: `take()` could never trust a window. */
  readonly barrierWatched: boolean;

  /** The number of directories watched. */
  get size(): number {
    return this.dirs.size;
  }

  /** The inode a watched directory was watched on, or undefined when it is not watched. */
  inodeOf(rel: string): number | undefined {
    return this.dirs.get(rel)?.ino;
  }

  /** Watches one directory of the tree (before it is listed, so no entry falls between). False when it failed. */
  watchDir(rel: string, ino: number): boolean {
    if (this.dirs.has(rel)) return true;
    const absolute = rel === '' ? this.root : join(this.root, rel);
    const rootName = basename(this.root);
    try {
      const watcher = watch(absolute, { persistent: false }, (_type, name) => {
        this.events += 1;
        if (name === null || name === undefined) {
          this.broken ??= `an event without a name in ${rel || '.'}`;
          return;
        }
        const entry = String(name);
        if (entry === '.gitignore' || entry === '.git') this.broken ??= `${rel ? `${rel}/` : ''}${entry} changed`;
        else if (rel === '' && entry === rootName) this.broken ??= 'the project directory itself changed';
        else {
          this.dirty.add(rel === '' ? entry : `${rel}/${entry}`);
          // libuv names an event on the watched directory itself by the directory's own name.
          if (rel !== '' && entry === basename(rel)) {
            this.dirty.add(rel);
            this.replaced.add(rel);
          }
        }
      });
      watcher.on('error', () => {
        this.broken ??= `the watch of ${rel || '.'} failed`;
      });
      watcher.unref();
      this.dirs.set(rel, { watcher, ino });
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the watches of `rel` and every directory below it (removed or replaced). */
  unwatchUnder(rel: string): void {
    const prefix = `${rel}/`;
    for (const [dir, watched] of this.dirs) {
      if (dir === rel || dir.startsWith(prefix) || rel === '') {
        watched.watcher.close();
        this.dirs.delete(dir);
      }
    }
  }

  /**
   * Watches a directory outside the tree whose entries named in `names` change the rules (info/exclude, an
   * ancestor's .gitignore); `names` false: the barrier's own directory (every event is handed to `each`);
   * `relist`: an event on one of `names` only asks for the tracked files to be listed again (git's index).
   */
  watchOther(dir: string, each: (name: string) => void, names: readonly string[] | false, relist = false): boolean {
    try {
      const watcher = watch(dir, { persistent: false }, (_type, name) => {
        this.events += 1;
        const entry = name === null || name === undefined ? '' : String(name);
        if (names === false) each(entry);
        else if (names.includes(entry)) {
          if (relist) this.relist = true;
          else this.broken ??= `${join(dir, entry)} changed`;
        }
      });
      watcher.on('error', () => {
        this.broken ??= `the watch of ${dir} failed`;
      });
      watcher.unref();
      this.others.push(watcher);
      return true;
    } catch {
      return false;
    }
  }

  /** Marks `rel` for the next scan to look at (a path the scan could not trust yet). */
  mark(rel: string): void {
    this.dirty.add(rel);
  }

  /** Everything since the last take (see the file's contract). */
  async take(): Promise<Taken> {
    const arrived = await this.barrier();
    const dirty = this.dirty;
    const replaced = this.replaced;
    const relist = this.relist;
    const events = this.events;
    const broken = this.broken;
    this.dirty = new Set();
    this.replaced = new Set();
    this.relist = false;
    this.events = 0;
    this.broken = undefined;
    if (!arrived) return { full: true, reason: 'the watch barrier did not arrive' };
    if (broken !== undefined) return { full: true, reason: broken };
    if (events >= this.eventLimit) return { full: true, reason: `${events} events (the kernel may have dropped some)` };
    return { full: false, dirty, replaced, relist };
  }

  /** Writes a fresh barrier file and waits for its event (every earlier event has then been handled). */
  private barrier(): Promise<boolean> {
    this.barrierSeq += 1;
    const name = `watch-barrier-${process.pid}-${this.barrierSeq}`;
    const path = join(this.barrierDir, name);
    return new Promise<boolean>((resolve) => {
      const done = (arrived: boolean): void => {
        clearTimeout(timer);
        this.onBarrier = undefined;
        try {
          unlinkSync(path);
        } catch {
          // never written
        }
        resolve(arrived);
      };
      const timer = setTimeout(() => done(false), BARRIER_MS);
      this.onBarrier = (entry) => {
        if (entry === name) done(true);
      };
      try {
        writeFileSync(path, '', { mode: 0o600 });
      } catch {
        done(false);
      }
    });
  }

  close(): void {
    for (const { watcher } of this.dirs.values()) watcher.close();
    this.dirs.clear();
    for (const watcher of this.others.splice(0)) watcher.close();
  }
}
