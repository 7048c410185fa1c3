/**
 * The content-addressed part of a checkpoint store: `blobs/<first two hex>/<sha256>`, each file 0600 and written
 * durably (temp file, fsync, rename, fsync of the directory) before the change it guards runs. The same content
 * is stored once however many checkpoints or files refer to it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const STORE_FILE_MODE = 0o600;
export const STORE_DIR_MODE = 0o700;
const HASH = /^[0-9a-f]{64}$/;

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

/** Writes `bytes` to `path` atomically and durably, 0600. */
export async function writeDurably(path: string, bytes: Buffer | string): Promise<void> {
  const dir = join(path, '..');
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, STORE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  await syncDirectory(dir);
}

export class BlobStore {
  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`not a content hash: ${hash}`);
    return join(this.dir, hash.slice(0, 2), hash);
  }

  async has(hash: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(hash))).isFile();
    } catch {
      return false;
    }
  }

  /** Stores `bytes` (once per content) and answers its hash. */
  async put(bytes: Buffer): Promise<string> {
    const hash = hashOf(bytes);
    if (await this.has(hash)) return hash;
    const shard = join(this.dir, hash.slice(0, 2));
    await mkdir(shard, { recursive: true, mode: STORE_DIR_MODE });
    await writeDurably(this.pathOf(hash), bytes);
    return hash;
  }

  /** The content of `hash`, checked against it (a damaged blob reads as missing). */
  async get(hash: string): Promise<Buffer | undefined> {
    try {
      const bytes = await readFile(this.pathOf(hash));
      return hashOf(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes every blob not in `keep`; answers the bytes freed. */
  async sweep(keep: ReadonlySet<string>): Promise<number> {
    let freed = 0;
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      const shardDir = join(this.dir, shard);
      for (const name of await readdir(shardDir).catch(() => [] as string[])) {
        if (keep.has(name)) continue;
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
