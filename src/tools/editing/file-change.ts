import { isUtf8 } from 'node:buffer';
import { constants, type Stats } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { AtomicWriteError, writeFileAtomic } from '../../fs/atomic-write.js';
import { DIFF_MAX_INPUT_CHARS } from './edit-core.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { checkWriteAllowed, contentHash, stampOf, type FileStamp } from '../files/file-state.js';
import { looksBinary } from '../files/line-scanner.js';
import { openFileInside, PathSwapError } from '../../fs/pinned-directory.js';
import type { ToolContext } from '../registry/tool-context.js';
import { resolveInProject } from '../files/workspace.js';

/** Files Edit/MultiEdit load whole into memory; larger ones must be changed another way. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

export interface FileTarget {
  absolute: string;
  relative: string;
  /** The real root the file lies in (the project or an added directory), and the path below it. */
  root: string;
  rootRelative: string;
  /** Undefined when the file does not exist yet. */
  stamp: FileStamp | undefined;
  /** Current text ('' for a new file, and for a Write target too big to diff: see `contentLoaded`). */
  content: string;
  /** False when an existing file's text was not loaded (Write over a file past the diff bound). */
  contentLoaded: boolean;
  /** sha256 of the bytes on disk when loaded: commitChange tells a save of the same bytes from a change. */
  diskHash?: string;
}

export type TargetResult = { ok: true; target: FileTarget } | { ok: false; envelope: ToolEnvelope };

function fail(envelope: ToolEnvelope): TargetResult {
  return { ok: false, envelope };
}

/**
 * Resolves and loads a file a tool is about to change, enforcing the workspace guard and the read-before-write
 * rule. `mustExist` is for Edit/MultiEdit; Write may create.
 */
export async function loadTarget(ctx: ToolContext, path: string, mustExist: boolean): Promise<TargetResult> {
  const resolved = resolveInProject(ctx.projectRoot, path, ctx.extraRoots);
  if (!resolved.ok) return fail(errorEnvelope(resolved.error.code, resolved.error.message));
  const { absolute, relative, root, rootRelative } = resolved;
  const context = { path: relative };
  let info;
  try {
    info = await stat(absolute);
  } catch {
    info = undefined;
  }
  if (info?.isDirectory()) return fail(errorEnvelope('IS_DIRECTORY', `${relative} is a directory.`, { context }));
  if (info && !info.isFile())
    return fail(errorEnvelope('INVALID_PARAM', `${relative} is not a regular file.`, { context }));
  if (!info) {
    if (mustExist) {
      return fail(
        errorEnvelope('NOT_FOUND', `File not found: ${relative}. Use Write to create a new file.`, { context }),
      );
    }
    return {
      ok: true,
      target: { absolute, relative, root, rootRelative, stamp: undefined, content: '', contentLoaded: true },
    };
  }
  const stamp = { mtimeMs: info.mtimeMs, size: info.size };
  const guard = checkWriteAllowed(ctx.fileState, absolute, relative, stamp);
  // A stamp that moved is decided once the text is loaded when mca knows the hash of what it last saw or wrote.
  const deferred = guard !== undefined && ctx.fileState.get(absolute)?.hash !== undefined;
  if (guard && !deferred) return fail(errorEnvelope(guard.code, guard.message, { context }));
  /** The stale check, once the disk's bytes are hashed: the text mca last saw or wrote, saved again, is fresh. */
  const fresh = (diskHash: string): TargetResult | undefined => {
    if (!deferred || !guard) return undefined;
    if (ctx.fileState.get(absolute)?.hash !== diskHash)
      return fail(errorEnvelope(guard.code, guard.message, { context }));
    ctx.fileState.record(absolute, { ...stamp, hash: diskHash });
    return undefined;
  };
  const readOnly = await readOnlyReason(absolute, info);
  if (readOnly !== undefined) {
    return fail(
      errorEnvelope(
        'ACCESS_DENIED',
        `${relative} is read-only (${readOnly}); mca does not replace files you cannot write. Ask the user to change its mode if the change is wanted.`,
        { context },
      ),
    );
  }
  if (!mustExist) {
    if (info.size > DIFF_MAX_INPUT_CHARS) {
      if (deferred && guard) return fail(errorEnvelope(guard.code, guard.message, { context }));
      return { ok: true, target: { absolute, relative, root, rootRelative, stamp, content: '', contentLoaded: false } };
    }
  } else if (info.size > MAX_EDIT_BYTES) {
    return fail(
      errorEnvelope(
        'INVALID_PARAM',
        `${relative} is ${info.size} bytes, over the ${MAX_EDIT_BYTES}-byte edit limit; use Bash (e.g. sed) instead.`,
        { context },
      ),
    );
  }
  let bytes: Buffer;
  try {
    const handle = await openFileInside(root, absolute);
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof PathSwapError) return fail(errorEnvelope('ACCESS_DENIED', error.message, { context }));
    const code = (error as NodeJS.ErrnoException).code;
    // Gone between the stat above and the open (a directory moved or swapped meanwhile): as if it had not existed.
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return fail(
        errorEnvelope('NOT_FOUND', `${relative} vanished while it was being read; Read it again.`, { context }),
      );
    }
    throw error;
  }
  const diskHash = contentHash(bytes);
  if (!mustExist) {
    const utf8 = isUtf8(bytes);
    const text = !utf8 ? '' : ctx.files ? await ctx.files.readText(absolute, ctx.signal) : bytes.toString('utf8');
    const stale = fresh(diskHash);
    if (stale) return stale;
    return {
      ok: true,
      target: { absolute, relative, root, rootRelative, stamp, content: text, contentLoaded: utf8, diskHash },
    };
  }
  if (looksBinary(bytes.subarray(0, 8192)))
    return fail(
      errorEnvelope('BINARY_FILE', `${relative} is a binary file; it cannot be edited as text.`, { context }),
    );
  // Decoding would turn every invalid byte into U+FFFD, so an edit would silently rewrite text it never touched.
  if (!isUtf8(bytes)) {
    return fail(
      errorEnvelope(
        'INVALID_PARAM',
        `${relative} is not valid UTF-8 (another encoding?); editing it as text would corrupt it. Use Bash instead.`,
        { context },
      ),
    );
  }
  // With a file-access port the text to change is the host's (an editor's unsaved buffer); the checks were on disk.
  const content = ctx.files ? await ctx.files.readText(absolute, ctx.signal) : bytes.toString('utf8');
  const stale = fresh(diskHash);
  if (stale) return stale;
  return {
    ok: true,
    target: { absolute, relative, root, rootRelative, stamp, content, contentLoaded: true, diskHash },
  };
}

/**
 * Why the current user may not write this file, or undefined. Replacing goes through a rename, which the
 * file's own mode would not stop, so it is checked here: no write bit at all (0444, even for root) or no
 * write access for this user.
 */
async function readOnlyReason(absolute: string, info: Stats): Promise<string | undefined> {
  const mode = `mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}`;
  if ((info.mode & 0o222) === 0) return mode;
  try {
    await access(absolute, constants.W_OK);
    return undefined;
  } catch {
    return `${mode}, not writable by this user`;
  }
}

/** After approval: refuses if the file changed while the user was deciding, else writes atomically and records. */
export async function commitChange(
  ctx: ToolContext,
  target: FileTarget,
  content: string,
): Promise<ToolEnvelope | undefined> {
  const now = await stampOf(target.absolute);
  const moved =
    target.stamp === undefined
      ? now !== undefined
      : now === undefined || now.mtimeMs !== target.stamp.mtimeMs || now.size !== target.stamp.size;
  // A save of the same bytes meanwhile (an editor saving the buffer) moves the stamp but changes nothing.
  const changed = moved && !(now !== undefined && (await sameBytes(target)));
  if (changed) {
    return errorEnvelope(
      'CONFLICT',
      `${target.relative} changed on disk while waiting for approval. Read it again, then retry.`,
      {
        context: { path: target.relative },
      },
    );
  }
  try {
    if (ctx.files) await ctx.files.writeText(target.absolute, content);
    else
      writeFileAtomic(target.absolute, content, {
        root: target.root,
        createDirectories: true,
        keepMode: true,
        sweepStaleTemps: true,
      });
  } catch (error) {
    if (error instanceof AtomicWriteError) {
      return errorEnvelope(error.code, error.message, { context: { path: target.relative } });
    }
    if (ctx.files) {
      const message = error instanceof Error ? error.message : String(error);
      return errorEnvelope('EXECUTION_ERROR', `${target.relative} could not be written: ${message}`, {
        context: { path: target.relative },
      });
    }
    throw error;
  }
  const written = await stampOf(target.absolute);
  // The hash of the text written: a host that saves it later (mtime moves, text the same) leaves the file fresh.
  if (written) ctx.fileState.record(target.absolute, { ...written, hash: contentHash(content) });
  return undefined;
}

/** Whether the file on disk still has the bytes loadTarget read (bounded by the edit limit; unreadable: no). */
async function sameBytes(target: FileTarget): Promise<boolean> {
  if (target.diskHash === undefined) return false;
  try {
    const info = await stat(target.absolute);
    if (!info.isFile() || info.size > MAX_EDIT_BYTES) return false;
    const handle = await openFileInside(target.root, target.absolute);
    try {
      return contentHash(await handle.readFile()) === target.diskHash;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
