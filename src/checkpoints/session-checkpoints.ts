/**
 * The checkpoint store of one session (`<session-id>.checkpoints/` beside the session file under MCA_HOME: never
 * in the project, never in git) and the step the registry runs before an allowed call executes:
 * - a tool that declares the files it changes (`locations`: Write, Edit, MultiEdit, …): each file's state before
 *   the call is stored and journalled (fsync'd) before the call runs, its state afterwards once it ran;
 * - a Bash call (permission `exec`): a scan before (root-scan.ts: the project and the added directories),
 *   durably recorded, and one after; what differs is journalled. A crash between the two leaves the `bash-start`
 *   record, recovered on the next open.
 * A file of an added directory (`--add-dir`, `/add-dir`) is journalled by its absolute path, and the directory once
 * as a `root` record: a rewind restores paths only inside the project and the roots so recorded.
 * Which prompt a change belongs to is not tracked here: a checkpoint is a user message of the session file, and
 * a change belongs to the newest one written before it (checkpoint-list.ts).
 */
import { bashTool } from '../tools/processes/bash.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobStore, STORE_DIR_MODE } from './blob-store.js';
import { materialize, type ScanState } from './git-blobs.js';
import { captureFile } from './file-capture.js';
import { Journal, type ImageDelta, type JournalRecord } from './journal.js';
import { changedPaths, SCAN_DEADLINE_MS, type Image } from './project-scan.js';
import { keepRoots, scanRoots, type RootsScanResult } from './root-scan.js';
import { RACY_MS, WatchedTree } from './watched-scan.js';
import { applyDelta, imageDelta } from './image-delta.js';
import { readIndexView } from './index-stat.js';
import { gitWhere } from './git-where.js';
import { decodeImage, encodeImage } from './image-codec.js';
import { listGitFiles } from './git-files.js';
import { resolveInProject } from '../tools/files/workspace.js';
import { listCheckpoints } from './checkpoint-list.js';
import { prune, pruneCutoff, type PruneLimits } from './prune.js';
import { readSessionPrompts } from './session-prompts.js';
import type { ToolCall, ToolDefinition } from '../tools/registry/define-tool.js';
import type { ToolEnvelope } from '../tools/registry/envelope.js';

import { DEFAULT_LIMITS, type CheckpointLimits } from './limits.js';

export { DEFAULT_LIMITS, type CheckpointLimits } from './limits.js';

/** What runs once the guarded call finished. */
export type AfterRun = (envelope: ToolEnvelope) => Promise<void>;

export { checkpointDir } from './limits.js';

function now(): string {
  return new Date().toISOString();
}

export class SessionCheckpoints {
  readonly blobs: BlobStore;
  readonly journal: Journal;
  /** The last scan, reused by the next (loaded from the journal's last image on first use). */
  private image: Image | undefined;
  /** Set once a scan found the project too large (the reason recorded for each later Bash call). */
  private overLimit: string | undefined;
  /** The blob of the last journalled scan, and that scan. */
  private imageHash: string | undefined;
  private stored: Image | undefined;
  /** The scan the last `bash-start` record describes, and its delta against `stored` (if it has one). */
  private journalled: { scan: Image; delta?: ImageDelta } | undefined;
  private opened: Promise<void> | undefined;
  /** Added directories a scan of this process left out (too many files, too slow), with why. */
  private readonly skippedRoots = new Map<string, string>();
  /** Added directories already journalled as `root` records. */
  private readonly journalledRoots = new Set<string>();
  /** The project's change events between scans (watched-scan.ts); made with the first Bash call. */
  private tree: WatchedTree | undefined;
  /** When the scan `image` came from started (ms): its racy files are those modified from RACY_MS before it. */
  private scannedAt = -Infinity;

  constructor(
    readonly dir: string,
    readonly projectRoot: string,
    private readonly limits: CheckpointLimits = DEFAULT_LIMITS,
    /** Pruned on open (before anything else reads or appends the journal): the session file and the limits. */
    private readonly pruning?: { sessionPath: string; limits: PruneLimits },
    secrets: readonly string[] = [],
    /** The session's added directories now (real paths; the list may grow during the session). */
    private readonly extraRoots: () => readonly string[] = () => [],
  ) {
    this.blobs = new BlobStore(join(dir, 'blobs'), secrets);
    this.journal = new Journal(join(dir, 'journal.jsonl'));
  }

  /** Creates the directory and recovers a Bash call a crash interrupted. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      await mkdir(this.blobs.dir, { recursive: true, mode: STORE_DIR_MODE });
      for (const record of await this.journal.read()) if (record.t === 'root') this.journalledRoots.add(record.root);
      await this.recover();
      if (this.pruning) await this.prune(this.pruning.sessionPath, this.pruning.limits).catch(() => 0);
    })();
    return this.opened;
  }

  /** The step before a call runs; throws when the store cannot be written (the call must not run unguarded). */
  async beforeRun(call: ToolCall, tool: ToolDefinition, signal: AbortSignal): Promise<AfterRun | undefined> {
    if (tool.permission === 'exec') return await this.aroundCommand(call, signal);
    const paths = (tool.locations?.(call.input as Record<string, unknown>, {}) ?? [])
      .filter((touch) => touch.kind !== 'read')
      .map((touch) => touch.path);
    if (paths.length === 0) return undefined;
    await this.open();
    const guarded: Array<{ rel: string; absolute: string }> = [];
    const records: JournalRecord[] = [];
    const extras = this.extraRoots();
    for (const path of paths) {
      const resolved = resolveInProject(this.projectRoot, path, extras);
      if (!resolved.ok) continue; // the tool refuses it too
      // A file of an added directory: `relative` is its absolute path; the root is journalled first.
      if (resolved.relative === resolved.absolute) records.push(...this.rootRecords([resolved.root]));
      const captured = await captureFile(resolved.absolute, this.blobs, this.limits.maxEditFileBytes);
      guarded.push({ rel: resolved.relative, absolute: resolved.absolute });
      records.push({
        t: 'change',
        ts: now(),
        path: resolved.relative,
        before: captured.state,
        tool: call.name,
        callId: call.id,
      });
    }
    await this.appendRecords(...records);
    return async () => {
      const after: JournalRecord[] = [];
      for (const { rel, absolute } of guarded) {
        const captured = await captureFile(absolute, this.blobs, this.limits.maxEditFileBytes);
        after.push({ t: 'after', ts: now(), path: rel, after: captured.state });
      }
      await this.journal.append(...after);
    };
  }

  /** The added directories a rewind may write in: those the journal recorded, and the session's roots now. */
  restoreRoots(records: readonly JournalRecord[]): string[] {
    const recorded = records.flatMap((record) => (record.t === 'root' ? [record.root] : []));
    return [...new Set([...recorded, ...this.extraRoots()])];
  }

  /** Appends `records`; `root` records among them count as journalled only once the append succeeded. */
  private async appendRecords(...records: JournalRecord[]): Promise<void> {
    try {
      await this.journal.append(...records);
    } catch (error) {
      for (const record of records) if (record.t === 'root') this.journalledRoots.delete(record.root);
      throw error;
    }
  }

  /** `root` records for the added directories among `roots` not yet journalled (marked; see appendRecords). */
  private rootRecords(roots: readonly string[]): JournalRecord[] {
    const fresh = roots.filter((root) => !this.journalledRoots.has(root));
    for (const root of fresh) this.journalledRoots.add(root);
    return fresh.map((root): JournalRecord => ({ t: 'root', ts: now(), root }));
  }

  private async aroundCommand(call: ToolCall, signal: AbortSignal): Promise<AfterRun> {
    await this.open();
    const previous = this.image ?? {};
    // An added directory found too large or too slow is not walked again by this process either (a `--add-dir ~`
    // must not cost every Bash call the scan's deadline); it is named for each call.
    const known = this.extraRoots();
    const extras = known.filter((root) => !this.skippedRoots.has(root));
    const kept = known.flatMap((root) => {
      const reason = this.skippedRoots.get(root);
      return reason === undefined ? [] : [{ root, reason }];
    });
    // A project found too large to scan is not walked again by this process: each Bash call would pay the walk
    // only to learn the same.
    const before = this.overLimit
      ? { ok: false as const, reason: this.overLimit }
      : await this.scan(previous, extras, signal);
    if (!before.ok) {
      // Over the file limit or the scan's deadline: later calls of this process skip the scan and say so.
      if (!signal.aborted) this.overLimit = before.reason;
      await this.journal.append({ t: 'untracked', ts: now(), callId: call.id, reason: before.reason });
      return async () => undefined;
    }
    // The scan itself is stored (gzipped) for crash recovery; the previous one is superseded once this is journalled.
    // A scan equal to the stored one (nothing changed since) reuses its blob: no serialising and hashing again.
    if (!signal.aborted) for (const { root, reason } of before.skipped) this.skippedRoots.set(root, reason);
    // A scan that differs from the stored one in a few entries is journalled as those entries (image-delta.ts); the
    // same scan as the last journalled one (nothing changed since) is journalled as that one, without comparing.
    const repeated = this.journalled?.scan === before.image ? this.journalled : undefined;
    const unchanged =
      repeated === undefined &&
      this.imageHash !== undefined &&
      this.stored !== undefined &&
      sameEntries(this.stored, before.image);
    const delta =
      repeated !== undefined
        ? repeated.delta
        : !unchanged && this.imageHash !== undefined && this.stored !== undefined
          ? imageDelta(this.stored, before.image)
          : undefined;
    const image =
      repeated !== undefined || unchanged || delta !== undefined
        ? (this.imageHash ?? '')
        : await this.blobs.put(encodeImage(before.image));
    await this.appendRecords(
      ...this.rootRecords(before.roots),
      ...[...kept, ...before.skipped].map(({ root, reason }): JournalRecord => ({
        t: 'untracked',
        ts: now(),
        callId: call.id,
        reason: `${root}: ${reason}`,
      })),
      {
        t: 'bash-start',
        ts: now(),
        callId: call.id,
        image,
        ...(before.roots.length > 0 ? { roots: before.roots } : {}),
        ...(delta ? { delta } : {}),
      },
    );
    if (this.imageHash !== undefined && this.imageHash !== image) await this.blobs.remove(this.imageHash);
    this.imageHash = image;
    if (delta === undefined) this.stored = before.image;
    this.image = before.image;
    this.journalled = { scan: before.image, ...(delta ? { delta } : {}) };
    const startedAt = now();
    return async () => {
      const after = await this.scan(before.image, before.roots, new AbortController().signal);
      if (!after.ok) {
        await this.journal.append(
          { t: 'untracked', ts: startedAt, callId: call.id, reason: after.reason },
          { t: 'bash-end', ts: now(), callId: call.id },
        );
        return;
      }
      // An added directory the after-scan could not cover is compared on neither side (and named).
      const compared = keepRoots(before.image, before.roots, after.roots);
      const records = await diffRecords(this.projectRoot, this.blobs, compared, after.image, startedAt, call);
      const lost = after.skipped.map(({ root, reason }): JournalRecord => ({
        t: 'untracked',
        ts: startedAt,
        callId: call.id,
        reason: `${root}: ${reason}`,
      }));
      await this.journal.append(...lost, ...records, {
        t: 'bash-end',
        ts: now(),
        callId: call.id,
      });
      this.image = after.image;
    };
  }

  /**
   * One scan of the project and `roots`, based on `previous` (the last scan): from the change events since it when
   * the watch can tell (no added roots), else every file, with the watch (re)started first.
   */
  private async scan(previous: Image, roots: readonly string[], signal: AbortSignal): Promise<RootsScanResult> {
    const started = Date.now();
    const racyFrom = this.scannedAt - RACY_MS;
    if (roots.length > 0) this.tree?.close();
    const tree = roots.length === 0 ? (this.tree ??= new WatchedTree(this.projectRoot, this.dir)) : undefined;
    const quick = await tree?.scan(previous, this.blobs, this.limits, racyFrom, signal);
    let result: RootsScanResult;
    if (quick) result = { ...quick, roots: [], skipped: [], plain: true };
    else {
      // The first scan reads git's index while the watch starts (nothing in it depends on the watch).
      const first = Object.keys(previous).length === 0;
      // One rev-parse says where the repository's files are, for both (git-where.ts).
      const where = tree || first ? gitWhere(this.projectRoot, SCAN_DEADLINE_MS, signal) : undefined;
      const indexRead = first ? readIndexView(this.projectRoot, SCAN_DEADLINE_MS, signal, where) : undefined;
      // git lists the candidate files while the watch starts: a file made before its directory was watched and
      // after git listed it is among what the watch start found in that directory (WatchedTree.unlisted).
      const listing = tree ? listGitFiles(this.projectRoot, SCAN_DEADLINE_MS, signal) : undefined;
      // Directories known to hold candidates are watched without asking git (the index's, or the last scan's).
      const seen = await tree?.prepare(
        signal,
        indexRead?.then((view) => view?.entries.keys()) ?? Promise.resolve(Object.keys(previous)),
        where,
      );
      const listed = listing?.then(async (got) => {
        if ('reason' in got || seen === undefined || !tree) return got;
        const missed = await tree.unlisted(got.paths, seen, signal);
        return missed === undefined || missed.length === 0 ? got : { ...got, paths: [...got.paths, ...missed] };
      });
      result = await scanRoots(
        this.projectRoot,
        roots,
        previous,
        this.blobs,
        this.limits,
        signal,
        racyFrom,
        indexRead,
        listed,
      );
      // A failed scan leaves `previous` in place: the events since the watch started would not cover what changed
      // before it, so the next scan is a full one again.
      if (result.ok) tree?.adopt(result.image, result.plain);
      else tree?.close();
    }
    if (result.ok) this.scannedAt = started;
    return result;
  }

  /** Drops what is older than the newest `limits.keep` checkpoints or `limits.days`; answers the bytes freed. */
  private async prune(sessionPath: string, limits: PruneLimits): Promise<number> {
    const [prompts, records] = await Promise.all([readSessionPrompts(sessionPath), this.journal.read()]);
    const cutoff = pruneCutoff(listCheckpoints(prompts, records), limits);
    return cutoff === undefined ? 0 : await prune(this.journal, this.blobs, cutoff);
  }

  /** A `bash-start` without its `bash-end` (mca was killed during the command): its changes are recorded now. */
  private async recover(): Promise<void> {
    const records = await this.journal.read();
    const ended = new Set(records.filter((record) => record.t === 'bash-end').map((record) => record.callId));
    const lastImage = records.filter((record) => record.t === 'bash-start').at(-1);
    // The last scan of an earlier run is the cache of the next one: a resumed session does not copy again.
    if (lastImage?.t === 'bash-start') {
      this.stored = await this.loadImage(lastImage.image);
      this.imageHash = lastImage.image;
      this.image = this.stored && applyDelta(this.stored, lastImage.delta);
      // The scan started before its record was written, at most the scan's deadline before.
      this.scannedAt = Date.parse(lastImage.ts) - SCAN_DEADLINE_MS;
    }
    for (const record of records) {
      if (record.t !== 'bash-start' || ended.has(record.callId)) continue;
      const base = await this.loadImage(record.image);
      const image = base && applyDelta(base, record.delta);
      if (!image) {
        await this.journal.append({ t: 'bash-end', ts: now(), callId: record.callId, recovered: true });
        continue;
      }
      const roots = record.roots ?? [];
      const signal = new AbortController().signal;
      const started = Date.now();
      const racyFrom = Date.parse(record.ts) - SCAN_DEADLINE_MS - RACY_MS;
      const after = await scanRoots(this.projectRoot, roots, image, this.blobs, this.limits, signal, racyFrom);
      const call = { id: record.callId, name: bashTool.name, input: {}, source: 'model' as const };
      const records = after.ok
        ? await diffRecords(
            this.projectRoot,
            this.blobs,
            keepRoots(image, roots, after.roots),
            after.image,
            record.ts,
            call,
          )
        : [];
      await this.journal.append(...records, {
        t: 'bash-end',
        ts: now(),
        callId: record.callId,
        recovered: true,
      });
      if (after.ok) {
        this.image = after.image;
        this.scannedAt = started;
      }
    }
  }

  private async loadImage(hash: string): Promise<Image | undefined> {
    const bytes = await this.blobs.get(hash);
    return bytes ? decodeImage(bytes) : undefined;
  }
}

/** The same entry objects under the same paths (a scan reuses the previous scan's entry for an unchanged file). */
function sameEntries(a: Image, b: Image): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The change and after records for what differs between two scans, stamped with the call's start; a git reference
 * among their states is copied from git's object store first (git-blobs.ts), so journalled records hold copies.
 */
async function diffRecords(
  projectRoot: string,
  blobs: BlobStore,
  before: Image,
  after: Image,
  ts: string,
  call: ToolCall,
): Promise<JournalRecord[]> {
  const paths = changedPaths(before, after);
  const states: ScanState[] = paths.flatMap((path) => [
    before[path]?.state ?? { kind: 'absent' },
    after[path]?.state ?? { kind: 'absent' },
  ]);
  const stored = await materialize(projectRoot, states, blobs, SCAN_DEADLINE_MS);
  return paths.flatMap((path, index): JournalRecord[] => [
    { t: 'change', ts, path, before: stored[2 * index] ?? { kind: 'absent' }, tool: call.name, callId: call.id },
    { t: 'after', ts, path, after: stored[2 * index + 1] ?? { kind: 'absent' } },
  ]);
}
