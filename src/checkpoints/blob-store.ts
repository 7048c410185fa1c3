/**
 * The content-addressed part of a checkpoint store: `blobs/<first two hex>/<sha256>`, each file 0600 and written
 * durably (temp file, fsync, rename, fsync of the directory) before the change it guards runs. The same content
 * is stored once however many checkpoints or files refer to it. Copies written in batch mode (a scan's) go into
 * one pack file per batch instead (blob-packs.ts), made durable by `flush()` like the loose ones were.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, statSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobPacks } from './blob-packs.js';

export const STORE_FILE_MODE = 0o600;
export const STORE_DIR_MODE = 0o700;
const HASH = /^[0-9a-f]{64}$/;
/** The pack files' directory inside the store (never a shard name: those are two hex digits). */
const PACKS = 'packs';

export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** fsync of a directory, so a rename in it survives a power loss; file systems that refuse it are skipped. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // some file systems do not allow fsync on a directory; the rename itself is still atomic
  } finally {
    await handle?.close();
  }
}

/** Writes `bytes` to `path` atomically and durably (unless `sync` is false: the caller flushes), 0600. */
export async function writeDurably(path: string, bytes: Buffer | string, sync = true): Promise<void> {
  const dir = join(path, '..');
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, STORE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    if (sync) await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  if (sync) await syncDirectory(dir);
}

/**
 * Makes a batch of written files durable at once: `sync -f` (syncfs of the store's file system, one flush
 * however many files) where coreutils has it, else an fsync of each file and directory; up to FSYNC_EACH_UP_TO
 * files, an fsync of each.
 */
async function flushBatch(anchor: string, files: readonly string[], syncAnchor = true): Promise<void> {
  // A few files (a scan's copies are one pack file per 32 MiB): their own fsyncs, not a flush of the whole file
  // system, which on a disk other work writes to waits for that work too.
  if (files.length <= FSYNC_EACH_UP_TO) {
    await syncEach(files);
    if (syncAnchor) await syncDirectory(anchor); // the packs directory's own entry, the first time it is made
    return;
  }
  const synced = await new Promise<boolean>((resolve) => {
    execFile('sync', ['-f', anchor], (error) => resolve(error === null));
  });
  if (synced) return;
  await syncEach(files);
}

const FSYNC_EACH_UP_TO = 8;

async function syncEach(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const handle = await open(file, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await syncDirectory(join(file, '..'));
  }
}

export class BlobStore {
  private readonly secrets: readonly Buffer[];
  private readonly packs: BlobPacks;

  /** `secrets`: the key values mca holds; content holding one is never stored (files under MCA_HOME never do). */
  constructor(
    readonly dir: string,
    secrets: readonly string[] = [],
  ) {
    this.secrets = secrets.filter((secret) => secret.length > 0).map((secret) => Buffer.from(secret));
    this.packs = new BlobPacks(join(dir, PACKS), STORE_FILE_MODE, STORE_DIR_MODE);
  }

  /** True when `bytes` hold one of the keys mca holds. */
  holdsSecret(bytes: Buffer): boolean {
    return this.secrets.some((secret) => bytes.includes(secret));
  }

  pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`not a content hash: ${hash}`);
    return join(this.dir, hash.slice(0, 2), hash);
  }

  /** Hashes known to be stored (filled as blobs are written or found), and shard directories made. */
  private readonly known = new Set<string>();
  private readonly shards = new Set<string>();

  async has(hash: string): Promise<boolean> {
    if (this.known.has(hash) || this.packs.has(hash)) return true;
    try {
      const present = (await stat(this.pathOf(hash))).isFile();
      if (present) this.known.add(hash);
      return present;
    } catch {
      return false;
    }
  }

  /** The store directory was fsync'd after its packs directory was made (once per process is enough). */
  private anchorSynced = false;

  /** Blobs written since the last flush (batch mode). */
  private pending: string[] = [];

  /**
   * Stores `bytes` (once per content) and answers its hash. `batch`: not yet durable, the caller calls `flush()`
   * before the change it guards (a scan copies thousands of files: one flush instead of one fsync each).
   */
  async put(bytes: Buffer, batch = false): Promise<string> {
    if (batch) return this.putBatchSync(bytes);
    const hash = hashOf(bytes);
    if (await this.has(hash)) return hash;
    const shard = join(this.dir, hash.slice(0, 2));
    if (!this.shards.has(shard)) {
      await mkdir(shard, { recursive: true, mode: STORE_DIR_MODE });
      this.shards.add(shard);
    }
    await writeDurably(this.pathOf(hash), bytes, !batch);
    this.known.add(hash);
    if (batch) this.pending.push(this.pathOf(hash));
    return hash;
  }

  /**
   * `put(bytes, true)` with synchronous calls, for a scan's chunks (file-capture.ts `captureFileSync`): the copy is
   * queued for the batch's pack file (blob-packs.ts), written by `flush()` (or earlier, once the queue is large)
   * and made durable by it.
   */
  putBatchSync(bytes: Buffer): string {
    const hash = hashOf(bytes);
    if (this.known.has(hash) || this.packs.has(hash)) return hash;
    if (statSync(this.pathOf(hash), { throwIfNoEntry: false })?.isFile()) {
      this.known.add(hash);
      return hash;
    }
    const written = this.packs.add(hash, bytes);
    if (written !== undefined) this.pending.push(written);
    return hash;
  }

  /** Makes every blob written in batch mode durable. */
  async flush(): Promise<void> {
    const written = this.packs.write();
    if (written !== undefined) this.pending.push(written);
    if (this.pending.length === 0) return;
    const files = this.pending;
    this.pending = [];
    await flushBatch(this.dir, files, !this.anchorSynced);
    this.anchorSynced = true;
  }

  /** The content of `hash`, checked against it (a damaged blob reads as missing). */
  async get(hash: string): Promise<Buffer | undefined> {
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(this.pathOf(hash));
    } catch {
      bytes = this.packs.read(hash);
    }
    return bytes !== undefined && hashOf(bytes) === hash ? bytes : undefined;
  }

  /** Removes one blob (a superseded scan). */
  async remove(hash: string): Promise<void> {
    this.known.delete(hash);
    await rm(this.pathOf(hash), { force: true });
  }

  /** Removes every blob not in `keep`; answers the bytes freed. */
  async sweep(keep: ReadonlySet<string>): Promise<number> {
    let freed = 0;
    const packed = this.packs.sweep(keep);
    if (packed.written !== undefined) {
      await flushBatch(this.dir, [packed.written]);
      freed -= (await stat(packed.written)).size;
    }
    this.packs.removeOld(packed.old);
    freed += packed.bytes;
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      if (shard === PACKS) continue;
      const shardDir = join(this.dir, shard);
      for (const name of await readdir(shardDir).catch(() => [] as string[])) {
        if (keep.has(name)) continue;
        this.known.delete(name);
        const path = join(shardDir, name);
        try {
          freed += (await stat(path)).size;
          await rm(path, { force: true });
        } catch {
          // removed meanwhile
        }
      }
    }
    return freed;
  }

  /** Total bytes of the stored blobs. */
  async size(): Promise<number> {
    let total = 0;
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      const shardDir = join(this.dir, shard);
      for (const name of await readdir(shardDir).catch(() => [] as string[])) {
        total += await stat(join(shardDir, name)).then(
          (info) => info.size,
          () => 0,
        );
      }
    }
    return total;
  }
}
