/**
 * A scan (project-scan.ts Image) as the gzipped blob a `bash-start` record names, and back. Most entries of a
 * committed repository's first scan are references to their index blob with the file's own mode and size: those
 * are written as one flat array (path, size, mtimeMs, ctimeMs, ino, mode, blob per entry) instead of one object of
 * two objects each, which halves the JSON to serialise, gzip and write on the first Bash call of a session. Every
 * other entry is kept as it is under `rest`. An image written before this format (a plain path → entry object) is
 * still read. Decoding answers undefined for bytes it cannot read (the caller treats the scan as lost).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Image, ImageEntry } from './project-scan.js';

const VERSION = 2;
const FIELDS = 7;

interface Packed {
  v: typeof VERSION;
  git: Array<string | number>;
  rest: Image;
}

export function encodeImage(image: Image): Buffer {
  const git: Array<string | number> = [];
  const rest: Image = {};
  // Own keys only, as JSON.stringify of the image took them; "__proto__" stays in `rest`, where JSON.parse makes it
  // an own key again (an assignment would not).
  for (const path of Object.keys(image)) {
    const entry = image[path];
    if (entry === undefined) continue;
    const { stat, state } = entry;
    if (
      path !== '__proto__' &&
      state.kind === 'git' &&
      state.root === undefined &&
      state.size === stat.size &&
      state.mode === (stat.mode & 0o7777)
    ) {
      git.push(path, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.mode, state.blob);
    } else rest[path] = entry;
  }
  const packed: Packed = { v: VERSION, git, rest };
  return gzipSync(JSON.stringify(packed), { level: 1 });
}

export function decodeImage(bytes: Buffer): Image | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const packed = parsed as Partial<Packed>;
  if (packed.v !== VERSION) return parsed as Image; // the format before this one: path → entry
  if (!Array.isArray(packed.git) || typeof packed.rest !== 'object' || packed.rest === null) return undefined;
  const image: Image = { ...packed.rest };
  const git = packed.git;
  for (let at = 0; at + FIELDS <= git.length; at += FIELDS) {
    const [path, size, mtimeMs, ctimeMs, ino, mode, blob] = git.slice(at, at + FIELDS);
    if (typeof path !== 'string' || typeof blob !== 'string') return undefined;
    if (![size, mtimeMs, ctimeMs, ino, mode].every((value) => typeof value === 'number')) return undefined;
    const stat = {
      size: size as number,
      mtimeMs: mtimeMs as number,
      ctimeMs: ctimeMs as number,
      ino: ino as number,
      mode: mode as number,
    };
    const entry: ImageEntry = { stat, state: { kind: 'git', blob, mode: stat.mode & 0o7777, size: stat.size } };
    image[path] = entry;
  }
  return image;
}
