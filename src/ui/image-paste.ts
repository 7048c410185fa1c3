/**
 * Images pasted into the REPL. A paste (several characters in one chunk) that is a single path to an image file,
 * as terminals write a dragged file (`'/a b/shot.png'`, `"/a b/shot.png"`, `/a\ b/shot.png`, `file:///…`, `~/…`),
 * attaches the image instead of the text. Pasted paths are the user's own choice, so they may lie outside the
 * project (a screenshot on the desktop); the size cap and the magic-byte check still apply. Ctrl+V reads an image
 * from the clipboard with the first tool found: `pngpaste` (macOS), `wl-paste` (Wayland), `xclip` (X11); with
 * none, or no image in the clipboard, it says so in one line.
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isImagePath, readImageFile } from '../fs/image-file.js';
import { imageFromBytes, MAX_IMAGE_BYTES, type ImageCheck, type ImagePart } from '../text/image-part.js';
import { isImageMediaType } from '../text/image-dimensions.js';

export type PastedImage = { kind: 'image'; image: ImagePart } | { kind: 'error'; message: string } | { kind: 'text' };

/** The path a pasted chunk names, when it is exactly one path (quoted, backslash-escaped or a file URL). */
export function pastedPath(text: string): string | undefined {
  let path = text.trim();
  if (path === '' || path.includes('\n')) return undefined;
  const quoted = /^(['"])(.*)\1$/.exec(path);
  if (quoted) path = quoted[2] ?? '';
  else if (/(?<!\\)\s/.test(path)) return undefined;
  else path = path.replace(/\\(.)/g, '$1');
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  if (path === '~' || path.startsWith('~/')) path = `${homedir()}${path.slice(1)}`;
  return path;
}

/** What a paste is: an image to attach, an image path that cannot be attached (why), or plain text. */
export function pastedImage(text: string, cwd: string): PastedImage {
  const path = pastedPath(text);
  if (path === undefined || !isImagePath(path)) return { kind: 'text' };
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const read = readImageFile(absolute, path);
  if (read.ok) return { kind: 'image', image: read.image };
  // A path that does not exist is ordinary text someone pasted; a real file that cannot be sent is reported.
  if (read.code === 'UNREADABLE' && /ENOENT|ENOTDIR/.test(read.message)) return { kind: 'text' };
  return { kind: 'error', message: `Image not attached: ${read.message}` };
}

/** A clipboard tool's output (at most one image's worth, 3 s at most); undefined when it is missing or fails. */
function run(command: string, args: string[]): Promise<Buffer | undefined> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { encoding: 'buffer', maxBuffer: MAX_IMAGE_BYTES + 1024, timeout: 3_000, windowsHide: true },
      (error, stdout) => done(error ? undefined : stdout),
    );
  });
}

const PREFERRED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

function pickType(list: Buffer | undefined): string | undefined {
  const types = (list?.toString('utf8') ?? '').split(/\s+/);
  return PREFERRED.find((type) => types.includes(type)) ?? types.find((type) => isImageMediaType(type));
}

export type ClipboardImage = ImageCheck | { ok: false; code: 'NO_TOOL' | 'EMPTY'; message: string };

/** The clipboard's image through the platform's tool (see the file comment); never throws. */
export async function clipboardImage(env: NodeJS.ProcessEnv = sessionEnvironment()): Promise<ClipboardImage> {
  let bytes: Buffer | undefined;
  let tried = false;
  if (process.platform === 'darwin') {
    tried = true;
    bytes = await run('pngpaste', ['-']);
  } else if (env.WAYLAND_DISPLAY) {
    const types = await run('wl-paste', ['--list-types']);
    tried = types !== undefined;
    const type = pickType(types);
    if (type) bytes = await run('wl-paste', ['--no-newline', '--type', type]);
  }
  if (bytes === undefined && process.platform !== 'darwin' && env.DISPLAY) {
    const targets = await run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o']);
    tried ||= targets !== undefined;
    const type = pickType(targets);
    if (type) bytes = await run('xclip', ['-selection', 'clipboard', '-t', type, '-o']);
  }
  if (!tried) {
    return {
      ok: false,
      code: 'NO_TOOL',
      message: 'Ctrl+V pastes images with pngpaste (macOS), wl-paste (Wayland) or xclip (X11); none is available here',
    };
  }
  if (bytes === undefined || bytes.length === 0)
    return { ok: false, code: 'EMPTY', message: 'No image in the clipboard' };
  return imageFromBytes(bytes, 'clipboard');
}
