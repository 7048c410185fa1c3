/**
 * Pack files of a blob store: the copies one scan makes in batch mode (blob-store.ts) go into one file,
 * `blobs/packs/<random>.pack`, instead of one file each (10,000 untracked files were 10,000 file creations and their
 * directory updates). Format: "MCAPACK1", the byte length of the index (uint32 big-endian), the index (JSON:
 * [hash, offset, length] per blob, offsets from the end of the index), then the blobs' bytes. A pack is written to a
 * temp file and renamed into place (a crash never leaves a partial pack under a pack name); durability comes from
 * the store's `flush()` (one `sync -f`) before the change it guards runs, as for batch-written loose blobs.
 * Reading checks nothing here: the store checks every blob's bytes against its hash.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const MAGIC = Buffer.from('MCAPACK1');
/** Pending copies past this many bytes are written out as a pack at once (memory stays bounded). */
const PACK_BYTES = 32 * 1024 * 1024;

interface Located {
  file: string;
  offset: number;
  length: number;
}

function readExactly(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

/** The index of one pack file (empty when it is not one). */
function readIndex(file: string): Array<[string, Located]> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const head = readExactly(fd, MAGIC.length + 4, 0);
    if (head.length < MAGIC.length + 4 || !head.subarray(0, MAGIC.length).equals(MAGIC)) return [];
    const indexLength = head.readUInt32BE(MAGIC.length);
    const dataStart = MAGIC.length + 4 + indexLength;
    const parsed: unknown = JSON.parse(readExactly(fd, indexLength, MAGIC.length + 4).toString('utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((entry): Array<[string, Located]> => {
      if (!Array.isArray(entry)) return [];
      const [hash, offset, length] = entry as unknown[];
      if (typeof hash !== 'string' || typeof offset !== 'number' || typeof length !== 'number') return [];
      return [[hash, { file, offset: dataStart + offset, length }]];
    });
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

export class BlobPacks {
  private index: Map<string, Located> | undefined;
  private pending: Array<{ hash: string; bytes: Buffer }> = [];
  private pendingHashes = new Map<string, Buffer>();
  private pendingBytes = 0;

  constructor(
    readonly dir: string,
    private readonly fileMode: number,
    private readonly dirMode: number,
  ) {}

  private loaded(): Map<string, Located> {
    if (this.index) return this.index;
    const index = new Map<string, Located>();
    let names: string[] = [];
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.pack'));
    } catch {
      // no pack yet
    }
    for (const name of names) for (const [hash, located] of readIndex(join(this.dir, name))) index.set(hash, located);
    this.index = index;
    return index;
  }

  has(hash: string): boolean {
    return this.pendingHashes.has(hash) || this.loaded().has(hash);
  }

  /** Queues a copy for the next pack; answers the pack file written when the queue grew past PACK_BYTES. */
  add(hash: string, bytes: Buffer): string | undefined {
    if (this.has(hash)) return undefined;
    this.pending.push({ hash, bytes });
    this.pendingHashes.set(hash, bytes);
    this.pendingBytes += bytes.length;
    return this.pendingBytes >= PACK_BYTES ? this.write() : undefined;
  }

  /** Writes the queued copies as one pack (not yet durable: see the file's contract); answers its path. */
  write(): string | undefined {
    if (this.pending.length === 0) return undefined;
    mkdirSync(this.dir, { recursive: true, mode: this.dirMode });
    const entries: Array<[string, number, number]> = [];
    let offset = 0;
    for (const { hash, bytes } of this.pending) {
      entries.push([hash, offset, bytes.length]);
      offset += bytes.length;
    }
    const index = Buffer.from(JSON.stringify(entries));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(index.length);
    const path = join(this.dir, `${randomBytes(12).toString('hex')}.pack`);
    const temp = `${path}.tmp`;
    try {
      writeFileSync(temp, Buffer.concat([MAGIC, length, index, ...this.pending.map((blob) => blob.bytes)]), {
        flag: 'wx',
        mode: this.fileMode,
      });
      renameSync(temp, path);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // never created
      }
      throw error;
    }
    const dataStart = MAGIC.length + 4 + index.length;
    const loaded = this.loaded();
    for (const [hash, at, size] of entries) loaded.set(hash, { file: path, offset: dataStart + at, length: size });
    this.pending = [];
    this.pendingHashes = new Map();
    this.pendingBytes = 0;
    return path;
  }

  /** The bytes stored for `hash` (unchecked), or undefined. */
  read(hash: string): Buffer | undefined {
    const queued = this.pendingHashes.get(hash);
    if (queued) return queued;
    const located = this.loaded().get(hash);
    if (!located) return undefined;
    let fd: number;
    try {
      fd = openSync(located.file, 'r');
    } catch {
      return undefined;
    }
    try {
      return readExactly(fd, located.length, located.offset);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Drops the copies not in `keep`: a pack with none kept is removed; one with some kept has those copied into a
   * new pack (answered in `written`, to be made durable before `removeOld` removes the old ones). Answers the
   * packs to remove and the bytes they hold.
   */
  sweep(keep: ReadonlySet<string>): { written?: string; old: string[]; bytes: number } {
    const byFile = new Map<string, string[]>();
    for (const [hash, located] of this.loaded()) byFile.set(located.file, [...(byFile.get(located.file) ?? []), hash]);
    const old: string[] = [];
    let bytes = 0;
    for (const [file, hashes] of byFile) {
      const kept = hashes.filter((hash) => keep.has(hash));
      if (kept.length === hashes.length) continue;
      for (const hash of kept) {
        const content = this.read(hash);
        if (content) {
          this.pending.push({ hash, bytes: content });
          this.pendingHashes.set(hash, content);
          this.pendingBytes += content.length;
        }
      }
      for (const hash of hashes) this.index?.delete(hash);
      old.push(file);
      try {
        bytes += statSync(file).size;
      } catch {
        // removed meanwhile
      }
    }
    const written = this.write();
    return { ...(written !== undefined ? { written } : {}), old, bytes };
  }

  /** Removes packs `sweep` replaced (after what it wrote is durable). */
  removeOld(files: readonly string[]): void {
    for (const file of files) rmSync(file, { force: true });
  }
}
