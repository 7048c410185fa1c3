/**
 * The scan around a Bash call from the kernel's change events instead of an lstat of every file (tree-watch.ts):
 * after one full scan (project-scan.ts) of a git work tree on a local Linux file system, every directory git does
 * not ignore is watched, and a later scan looks only at the paths that had an event since the previous scan:
 * lstat, compared with the previous image, read and copied when they differ. Nothing changed: no file is touched
 * and the previous image is answered as is. What it cannot tell from events it leaves to a full scan (answers
 * undefined): a rule change (.gitignore, info/exclude), a window with too many events, a barrier that did not
 * arrive, a directory holding tracked files that reappeared as an ignored one. A change of git's index (git add,
 * commit, checkout) only has the scan list the candidate files again (`git ls-files`), without an lstat of each.
 * Racy files: an event for a file whose stat equals the image's, and whose mtime is within RACY_MS of the scan
 * that recorded it, may be a same-size rewrite in the same timestamp tick: its bytes are read and compared.
 * Watching is off (every scan is full, as before) outside Linux, on a file system other than a local one, outside
 * git, with a nested repository or submodule, with added directories, or past MAX_WATCHED_DIRS directories.
 */
import { existsSync, readdirSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BlobStore } from './blob-store.js';
import { captureFileSync, sameStat, statKey } from './file-capture.js';
import { listGitFiles } from './git-files.js';
import { gitWhere, type GitWhere } from './git-where.js';
import { SCAN_DEADLINE_MS, type Image, type ImageEntry, type ScanLimits } from './project-scan.js';
import { TreeWatch } from './tree-watch.js';
import { lstatOrUndefined, notIgnoredBy, onLocalFileSystem, parentOf, stillSame } from './watched-paths.js';
import { isInside } from '../fs/contained-path.js';

/** A file whose mtime is this close to (or after) the scan that recorded its stat is not trusted by stat alone. */
export const RACY_MS = 2000;
const MAX_WATCHED_DIRS = 50_000;

export type QuickScan = { ok: true; image: Image; copiedBytes: number };

/**
 * Trees watching now in this process, oldest first: past MAX_LIVE_TREES (sessions a REPL switched away from) the
 * oldest stops watching (its next scan is a full one), so inotify watches do not pile up.
 */
const live: WatchedTree[] = [];
const MAX_LIVE_TREES = 4;

export class WatchedTree {
  private watch: TreeWatch | undefined;
  /** Why this project is never watched in this process (every scan is full). */
  private off: string | undefined;
  /** Directories git ignores, found since the watch started (not asked again). */
  private ignoredDirs = new Set<string>();

  constructor(
    readonly root: string,
    /** mca's own directory for the watch's barrier files (the session's checkpoint directory). */
    private readonly barrierDir: string,
  ) {}

  /** Why watching is off, if it is. */
  get offReason(): string | undefined {
    return this.off;
  }

  close(): void {
    this.watch?.close();
    this.watch = undefined;
    const at = live.indexOf(this);
    if (at !== -1) live.splice(at, 1);
  }

  /** Whether the next scan can come from events (a full scan ran and the watch holds). */
  get watching(): boolean {
    return this.watch !== undefined;
  }

  /** Has the next scan look at `rel` as if it had an event (a path it cannot trust by its stat alone). */
  mark(rel: string): void {
    this.watch?.mark(rel);
  }

  /** Stops watching for good in this process. */
  disable(reason: string): void {
    this.off ??= reason;
    this.close();
  }

  /**
   * The scan from the events since the last one, based on `previous` (the image of that scan); undefined when a
   * full scan is needed (then `prepare` before it and `adopt` after it). `racyFrom`: see RACY_MS.
   */
  async scan(
    previous: Image,
    blobs: BlobStore,
    limits: ScanLimits,
    racyFrom: number,
    signal: AbortSignal,
  ): Promise<QuickScan | undefined> {
    const watch = this.watch;
    if (!watch) return undefined;
    const taken = await watch.take();
    if (taken.full) {
      this.close();
      return undefined;
    }
    // git's index changed: the tracked files are listed again; a newly listed file is looked at like one that had an
    // event (its directory watched first), a file no longer listed leaves the image.
    const listed = taken.relist ? await listGitFiles(this.root, SCAN_DEADLINE_MS, signal) : undefined;
    const gitListed = new Set<string>();
    if (listed !== undefined) {
      if ('reason' in listed || listed.nested.length > 0 || listed.paths.length > limits.maxFiles) return this.giveUp();
      for (const rel of listed.paths) {
        gitListed.add(rel);
        if (rel in previous) continue;
        if (!this.watchChain(watch, parentOf(rel))) return this.giveUp();
        taken.dirty.add(rel);
      }
    }
    if (taken.dirty.size === 0 && listed === undefined) return { ok: true, image: previous, copiedBytes: 0 };
    let image: Image | undefined;
    const edit = (): Image => (image ??= { ...previous });
    const candidates: Array<{ rel: string; info: Stats }> = [];
    const unknown: string[] = [];
    const newDirs: string[] = [];
    const emptied: string[] = [];
    for (const rel of taken.dirty) {
      const info = lstatOrUndefined(join(this.root, rel));
      const ino = watch.inodeOf(rel);
      if (ino !== undefined && (taken.replaced.has(rel) || !(info?.isDirectory() === true && info.ino === ino))) {
        // A watched directory removed or replaced: what was under it is gone (a new one is listed below).
        watch.unwatchUnder(rel);
        const prefix = `${rel}/`;
        if (Object.keys(image ?? previous).some((key) => key.startsWith(prefix))) {
          const edited = edit();
          for (const key of Object.keys(edited)) if (key.startsWith(prefix)) delete edited[key];
          emptied.push(rel);
        }
      }
      if (info?.isFile() !== true) {
        if (rel in (image ?? previous)) delete edit()[rel];
        if (info?.isDirectory() === true && watch.inodeOf(rel) === undefined) newDirs.push(rel);
        continue;
      }
      // Listed again after an index change: git's listing says what is a candidate (one no longer listed is dropped).
      if (gitListed.has(rel) || (rel in previous && listed === undefined)) candidates.push({ rel, info });
      else if (!(rel in previous)) unknown.push(rel);
    }
    if (listed !== undefined) {
      for (const rel of Object.keys(previous))
        if (!gitListed.has(rel) && rel in (image ?? previous)) delete edit()[rel];
    }
    const dirs = await notIgnoredBy(
      this.root,
      newDirs.filter((dir) => !this.ignoredDirs.has(dir)),
      signal,
    );
    if (dirs === undefined) return this.giveUp();
    for (const dir of newDirs) {
      if (dirs.includes(dir)) continue;
      this.ignoredDirs.add(dir);
      // Tracked files lived there: git still lists them although their directory is ignored; a full scan knows.
      if (emptied.some((gone) => gone === dir || isInside(gone, dir))) return this.giveUp();
    }
    const explored = await this.explore(watch, dirs, new Set(), signal);
    if (typeof explored === 'string') return this.giveUp(explored);
    const fresh = await notIgnoredBy(this.root, [...unknown, ...explored.files], signal);
    if (fresh === undefined) return this.giveUp();
    for (const rel of fresh) {
      const info = lstatOrUndefined(join(this.root, rel));
      if (info?.isFile() === true) candidates.push({ rel, info });
    }
    let copiedBytes = 0;
    // A file is read only through a watched directory still the one watched (a directory swapped for a symlink
    // out of the project is never followed, as the full scan's real-path check does).
    const sound = new Map<string, boolean>();
    const inWatchedDir = (rel: string): boolean => {
      const dir = parentOf(rel);
      let ok = sound.get(dir);
      if (ok === undefined) {
        const ino = watch.inodeOf(dir);
        const info = ino === undefined ? undefined : lstatOrUndefined(dir === '' ? this.root : join(this.root, dir));
        ok = info?.isDirectory() === true && info.ino === ino;
        sound.set(dir, ok);
      }
      return ok;
    };
    for (const { rel, info } of candidates) {
      if (!inWatchedDir(rel)) {
        if (rel in (image ?? previous)) delete edit()[rel];
        continue;
      }
      const stat = statKey(info);
      const known = previous[rel];
      const absolute = join(this.root, rel);
      if (
        known !== undefined &&
        sameStat(known.stat, stat) &&
        known.state.kind !== 'absent' &&
        known.state.kind !== 'unrestorable' &&
        (known.stat.mtimeMs < racyFrom || stillSame(absolute, known.state))
      ) {
        if (image !== undefined) image[rel] = known;
        continue;
      }
      let entry: ImageEntry | undefined;
      if (stat.size > limits.maxFileBytes) {
        entry = {
          stat,
          state: { kind: 'unrestorable', reason: `larger than the ${limits.maxFileBytes}-byte checkpoint limit` },
        };
      } else if (copiedBytes + stat.size > limits.maxCopyBytes) {
        entry = {
          stat,
          state: { kind: 'unrestorable', reason: `over the ${limits.maxCopyBytes}-byte copy budget of one scan` },
        };
      } else {
        copiedBytes += stat.size;
        const captured = captureFileSync(absolute, blobs, limits.maxFileBytes);
        if (captured.state.kind !== 'absent') entry = { stat: captured.stat ?? stat, state: captured.state };
      }
      if (entry) edit()[rel] = entry;
      else if (rel in (image ?? previous)) delete edit()[rel];
    }
    await blobs.flush();
    if (signal.aborted) return undefined;
    if (image !== undefined && Object.keys(image).length > limits.maxFiles) return this.giveUp();
    return { ok: true, image: image ?? previous, copiedBytes };
  }

  private giveUp(reason?: string): undefined {
    if (reason !== undefined && reason.startsWith('a nested repository')) this.disable(reason);
    else this.close();
    return undefined;
  }

  /**
   * Before a full scan: (re)starts the watches on every directory git does not ignore, so a change after the full
   * scan looked at a file is an event for the next scan; answers the files found in the watched directories
   * (undefined when not watching). `tracked`: the project-relative paths git's index holds,
   * when known; `where`: the repository's layout (git-where.ts), when the caller already asked.
   */
  async prepare(
    signal: AbortSignal,
    tracked?: Promise<Iterable<string> | undefined>,
    where?: Promise<GitWhere>,
  ): Promise<string[] | undefined> {
    this.close();
    this.ignoredDirs = new Set();
    if (this.off !== undefined) return undefined;
    if (process.platform !== 'linux') return this.stop('not Linux');
    const local = onLocalFileSystem(this.root);
    if (local !== true) return this.stop(local);
    const meta = await (where ?? gitWhere(this.root, SCAN_DEADLINE_MS, signal));
    if (!meta.ok) {
      if (meta.final !== true) this.disable('not a git work tree');
      return undefined;
    }
    const { top, index: indexPath, infoExclude: excludePath } = meta;
    const watch = new TreeWatch(this.root, this.barrierDir);
    if (!watch.barrierWatched) {
      watch.close();
      return this.stop(`could not watch ${this.barrierDir}`);
    }
    // git's index: a change (git add, commit, checkout) has the next scan list the tracked files again.
    if (!watch.watchOther(dirname(indexPath), () => undefined, [basename(indexPath)], true)) {
      watch.close();
      return this.stop(`could not watch ${dirname(indexPath)}`);
    }
    const rules: Array<[string, string]> = [];
    rules.push(existsSync(dirname(excludePath)) ? [excludePath, ''] : [dirname(excludePath), '']);
    // The project may be a subdirectory of its repository: the .gitignore files above it count too.
    for (let dir = this.root; dir !== top && isInside(top, dirname(dir)) && dirname(dir) !== dir; dir = dirname(dir)) {
      rules.push([join(dirname(dir), '.gitignore'), ''], [dir, '']);
    }
    for (const [path] of rules) {
      if (!watch.watchOther(dirname(path), () => undefined, [basename(path)])) {
        watch.close();
        return this.stop(`could not watch ${dirname(path)}`);
      }
    }
    const info = lstatOrUndefined(this.root);
    // Directories holding tracked files are watched without asking git whether it ignores them (one `check-ignore`
    // per level of the tree otherwise): they are watched anyway, for those files (see adopt).
    const known = new Set<string>();
    for (const path of (await tracked) ?? []) {
      for (let dir = parentOf(path); dir !== '' && !known.has(dir); dir = parentOf(dir)) known.add(dir);
    }
    const explored = info?.isDirectory() === true ? await this.explore(watch, [''], known, signal) : 'no root';
    if (typeof explored === 'string') {
      watch.close();
      // Interrupted: try again next time; anything else (a nested repository, too many directories, the system's
      // watch limit) would fail the same way on every call.
      if (!signal.aborted) this.disable(explored);
      return undefined;
    }
    this.watch = watch;
    live.push(this);
    if (live.length > MAX_LIVE_TREES) live[0]?.close();
    return explored.files;
  }

  /** `disable`, answering undefined (prepare's "not watching"). */
  private stop(reason: string): undefined {
    this.disable(reason);
    return undefined;
  }

  /**
   * The files among `seen` (what prepare's listing of the watched directories found) that `listed` (git's listing,
   * which may have run before the watches started) lacks and git does not ignore: files made between the two, which
   * no event will name. Undefined when git cannot say (the watch is then stopped: the next scan is a full one).
   */
  async unlisted(
    listed: readonly string[],
    seen: readonly string[],
    signal: AbortSignal,
  ): Promise<string[] | undefined> {
    const known = new Set(listed);
    const missed = await notIgnoredBy(
      this.root,
      seen.filter((rel) => !known.has(rel)),
      signal,
    );
    if (missed === undefined) this.close();
    return missed;
  }

  /**
   * After a full scan: `plain` false (git did not list the files, or a nested repository or submodule was walked)
   * turns watching off; otherwise the directories of listed files the walk left unwatched (tracked files in an
   * ignored directory) are watched too, and those files looked at again by the next scan.
   */
  adopt(image: Image, plain: boolean): void {
    const watch = this.watch;
    if (!watch) return;
    if (!plain) return this.disable('git did not list every file');
    for (const rel of Object.keys(image)) {
      const dir = parentOf(rel);
      if (watch.inodeOf(dir) !== undefined) continue;
      if (!this.watchChain(watch, dir)) return this.close();
      watch.mark(rel);
    }
    for (const rel of Object.keys(image)) if (watch.inodeOf(parentOf(rel)) === undefined) return this.close();
  }

  /** Watches `dir` and the directories above it not watched yet; false when one could not be watched. */
  private watchChain(watch: TreeWatch, dir: string): boolean {
    const chain: string[] = [];
    for (let up = dir; watch.inodeOf(up) === undefined; up = parentOf(up)) {
      chain.unshift(up);
      if (up === '') break;
    }
    for (const link of chain) {
      const info = lstatOrUndefined(join(this.root, link));
      if (info?.isDirectory() !== true || !watch.watchDir(link, info.ino)) return false;
    }
    return true;
  }

  /**
   * Watches and lists `starts` (directories git does not ignore) and every directory below them git does not
   * ignore (`known`: directories known not ignored, listed without asking), level by level: one `git
   * check-ignore` per level of directories not yet known. Answers the files found, or why watching stops.
   */
  private async explore(
    watch: TreeWatch,
    starts: readonly string[],
    known: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<{ files: string[] } | string> {
    const files: string[] = [];
    let level = [...starts];
    while (level.length > 0) {
      const unknown: string[] = [];
      const stack = level;
      for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
        const absolute = dir === '' ? this.root : join(this.root, dir);
        const info = lstatOrUndefined(absolute);
        if (info?.isDirectory() !== true) continue; // gone meanwhile: its parent's event says so
        if (watch.size >= MAX_WATCHED_DIRS) return `too many directories (over ${MAX_WATCHED_DIRS})`;
        if (!watch.watchDir(dir, info.ino)) return `could not watch ${dir || '.'}`;
        let entries;
        try {
          entries = readdirSync(absolute, { withFileTypes: true });
        } catch {
          continue;
        }
        for (const entry of entries) {
          const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
          if (entry.name === '.git') {
            if (dir === '') continue;
            return `a nested repository or submodule at ${dir}`;
          }
          if (entry.isDirectory()) (known.has(rel) ? stack : unknown).push(rel);
          else if (entry.isFile()) files.push(rel);
        }
      }
      if (unknown.length === 0 || signal.aborted) break;
      const kept = await notIgnoredBy(this.root, unknown, signal);
      if (kept === undefined) return 'git check-ignore failed';
      for (const dir of unknown) if (!kept.includes(dir)) this.ignoredDirs.add(dir);
      level = kept;
    }
    return signal.aborted ? 'interrupted' : { files };
  }
}
