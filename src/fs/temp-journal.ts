/**
 * The journal of mca's temp files, so a temp file a killed mca left (kill -9 or power loss between writing it and
 * renaming it over its target) is found without walking the project. Each process that writes files lists the
 * absolute path of every temp file it creates, before creating it, in its own journal under MCA_HOME
 * (`<dir>/<writer>-<hex>.txt`, 0600; the writer is the process stamp, process-liveness.ts). A start sweeps the
 * journals of processes that no longer run: it removes the
 * temp files they list that are still there, then the journal. A process that ends cleanly removes its own journal.
 *
 * The journal lives in MCA_HOME, which a project cannot write; even so a listed path is removed only when its
 * name is an mca temp name carrying that journal's writer and it is a regular file (never a symlink or a directory).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { parseStampToken, stampAlive, stampToken } from './process-liveness.js';
import { tempWriter } from './temp-files.js';

const JOURNAL_NAME = /^(\d+(?:_\d+)?)-[0-9a-f]+\.txt$/;
/** A journal grows by one line per file written; one larger than this is not read (it was not written by mca). */
const MAX_JOURNAL_BYTES = 16 * 1024 * 1024;

let journal: string | undefined;

/**
 * From now on this process lists its temp files in a journal in `dir`. Called at start-up (bootstrap); the first
 * call decides. Without it (unit tests, the bench) nothing is journalled. Failing to create the directory only leaves journalling off.
 */
export function journalTempsIn(dir: string): void {
  if (journal !== undefined) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  journal = join(dir, `${stampToken()}-${randomBytes(4).toString('hex')}.txt`);
  process.once('exit', removeOwnJournal);
}

/**
 * Lists `absolutePath` (a temp file about to be created) in this process's journal. Never throws: a journal that
 * cannot be written (disk full, MCA_HOME read-only) must not stop the write; a crash would then only leave the temp
 * file for the next write of the same file to remove, as before the journal existed.
 */
export function journalTemp(absolutePath: string): void {
  if (journal === undefined) return;
  try {
    // O_NOFOLLOW: a link planted at the journal's name is never written through.
    const flag = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
    const fd = openSync(journal, flag, 0o600);
    try {
      writeSync(fd, `${absolutePath}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // see above
  }
}

/** At exit: the journal goes unless a temp file it lists is still there (a write cut short by a signal). */
function removeOwnJournal(): void {
  if (journal === undefined) return;
  try {
    const listed = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    if (!listed.some((path) => existsSync(path))) unlinkSync(journal);
  } catch {
    // no journal was written, or it cannot be read: nothing to keep it for
  }
}

/**
 * Removes the temp files listed by the journals in `dir` of processes that no longer exist, then those journals.
 * Returns how many temp files were removed. Never rejects.
 */
export async function sweepTempJournals(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const token = JOURNAL_NAME.exec(name)?.[1];
    const writer = parseStampToken(token);
    if (token === undefined || writer === undefined || stampAlive(writer)) continue;
    const path = join(dir, name);
    try {
      const info = await lstat(path);
      if (!info.isFile() || info.size > MAX_JOURNAL_BYTES) continue;
      for (const listed of (await readFile(path, 'utf8')).split('\n')) {
        if (await removeListedTemp(listed, token)) removed += 1;
      }
      await unlink(path);
    } catch {
      // unreadable or already swept by another mca starting at the same time
    }
  }
  return removed;
}

async function removeListedTemp(path: string, writerToken: string): Promise<boolean> {
  const writer = tempWriter(basename(path));
  if (!isAbsolute(path) || writer === undefined || stampToken(writer) !== writerToken) return false;
  try {
    if (!(await lstat(path)).isFile()) return false;
    await unlink(path);
    return true;
  } catch {
    return false;
  }
}
