/**
 * git's index file read directly (format versions 2, 3 and 4), for the first scan's index view (index-stat.ts),
 * instead of `git ls-files --stage --debug` and a parse of its text: one read of about 100 bytes per tracked file.
 * Contract: answers the stage-0 entries (not submodules, no assume-unchanged, skip-worktree or intent-to-add flag)
 * under `prefix` with their cached stat, keyed by their path relative to the project; or undefined whenever the
 * file is anything this reader does not fully understand (another version, a split index's `link` extension, a
 * sparse index's directory entries, an unknown required extension, a checksum that does not match, a truncated
 * entry): the caller then asks git. Extensions git marks optional (an upper-case first letter) are skipped.
 * Read-only; the file's mtime comes from the same open descriptor as its bytes.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** One tracked file's index blob and the stat git cached for it. */
export interface IndexEntry {
  blob: string;
  ctimeS: number;
  ctimeNs: number;
  mtimeS: number;
  mtimeNs: number;
  /** Truncated to 32 bits, as git stores them. */
  ino: number;
  size: number;
}

export interface IndexFile {
  entries: Map<string, IndexEntry>;
  mtimeMs: number;
}

/** An index larger than this is left to git (a 50,000-file index is about 5 MB). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;
const CE_VALID = 0x8000;
const CE_EXTENDED = 0x4000;
const CE_STAGE = 0x3000;
const CE_NAME = 0x0fff;
const MODE_SUBMODULE = 0o160000;
const MODE_TYPE = 0o170000;
const MODE_DIRECTORY = 0o040000;

function readWhole(path: string): { bytes: Buffer; mtimeMs: number } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_INDEX_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) return undefined;
      read += got;
    }
    return { bytes, mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The index at `path` (`hashBytes`: 20 for SHA-1, 32 for SHA-256 repositories); `prefix`: the project's path inside
 * the repository ("" at the top, else ending in "/"). Undefined: ask git (see the contract).
 */
export function readIndexFile(path: string, prefix: string, hashBytes: 20 | 32): IndexFile | undefined {
  const whole = readWhole(path);
  if (!whole) return undefined;
  const { bytes } = whole;
  if (bytes.length < 12 + hashBytes || bytes.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const body = bytes.length - hashBytes;
  const trailer = bytes.subarray(body);
  // index.skipHash writes zeros instead of the checksum.
  if (trailer.some((byte) => byte !== 0)) {
    const sum = createHash(hashBytes === 20 ? 'sha1' : 'sha256')
      .update(bytes.subarray(0, body))
      .digest();
    if (!sum.equals(trailer)) return undefined;
  }
  const count = bytes.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  const conflicted = new Set<string>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  const fixed = 40 + hashBytes + 2;
  for (let index = 0; index < count; index += 1) {
    const start = at;
    if (start + fixed > body) return undefined;
    const mode = bytes.readUInt32BE(at + 24);
    const flags = bytes.readUInt16BE(at + 40 + hashBytes);
    let cursor = at + fixed;
    let extended = 0;
    if ((flags & CE_EXTENDED) !== 0) {
      if (version < 3 || cursor + 2 > body) return undefined;
      extended = bytes.readUInt16BE(cursor);
      cursor += 2;
    }
    let full: string;
    if (version === 4) {
      // Prefix compression: strip N bytes from the previous name, then a NUL-terminated suffix; no padding.
      let byte = bytes[cursor] ?? 0;
      cursor += 1;
      let strip = byte & 127;
      while ((byte & 128) !== 0) {
        if (cursor >= body) return undefined;
        byte = bytes[cursor] ?? 0;
        cursor += 1;
        strip = ((strip + 1) << 7) | (byte & 127);
      }
      const end = bytes.indexOf(0, cursor);
      if (end === -1 || end >= body || strip > previous.length) return undefined;
      previous = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(cursor, end)]);
      full = previous.toString('utf8');
      cursor = end + 1;
    } else {
      const length = flags & CE_NAME;
      const end = length < CE_NAME ? cursor + length : bytes.indexOf(0, cursor);
      if (end === -1 || end >= body || bytes[end] !== 0) return undefined;
      full = bytes.toString('utf8', cursor, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      cursor = start + ((end - start + 8) & ~7);
    }
    at = cursor;
    // A sparse index's directory entry: the files under it are not listed here.
    if ((mode & MODE_TYPE) === MODE_DIRECTORY) return undefined;
    if (prefix !== '' && !full.startsWith(prefix)) continue;
    const rel = prefix === '' ? full : full.slice(prefix.length);
    if ((flags & CE_STAGE) !== 0) {
      conflicted.add(rel);
      continue;
    }
    if ((mode & MODE_TYPE) === MODE_SUBMODULE || (flags & CE_VALID) !== 0 || extended !== 0) continue;
    entries.set(rel, {
      blob: bytes.toString('hex', start + 40, start + 40 + hashBytes),
      ctimeS: bytes.readUInt32BE(start),
      ctimeNs: bytes.readUInt32BE(start + 4),
      mtimeS: bytes.readUInt32BE(start + 8),
      mtimeNs: bytes.readUInt32BE(start + 12),
      ino: bytes.readUInt32BE(start + 20),
      size: bytes.readUInt32BE(start + 36),
    });
  }
  for (const rel of conflicted) entries.delete(rel);
  // Extensions: signature (4 bytes) and size (4 bytes) each; one git requires (lower-case first letter: a split
  // index's "link", a sparse index's "sdir") is not understood here.
  while (at + 8 <= body) {
    const first = bytes[at] ?? 0;
    if (first < 0x41 || first > 0x5a) return undefined;
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  if (at !== body) return undefined;
  return { entries, mtimeMs: whole.mtimeMs };
}
