import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { ToolError } from '../registry/envelope.js';
import type { GrepSearch } from './grep-ripgrep.js';
import { matchText, type MatchCollector } from './grep-matches.js';
import { readHead, scanLines } from '../files/line-scanner.js';
import { walkProjectFiles, type WalkTally } from '../walking/walk-files.js';

/** Bytes of one line held for matching; longer lines are matched on their head only. */
const MAX_LINE_BYTES = 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;

export function compileJsPattern(pattern: string, caseSensitive: boolean): RegExp | ToolError {
  try {
    return new RegExp(pattern, caseSensitive ? '' : 'i');
  } catch (error) {
    return {
      code: 'INVALID_PARAM',
      message: `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`,
    };
  }
}

/**
 * Opens a file for searching: never through a final symlink, never blocking (a FIFO or device swapped in after
 * the walk saw a regular file opens at once and is then skipped), and only when the descriptor is a regular file.
 */
async function openRegular(absolute: string): Promise<FileHandle | undefined> {
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  return undefined;
}

async function searchFile(
  relative: string,
  absolute: string,
  regex: RegExp,
  search: GrepSearch,
  collector: MatchCollector,
): Promise<boolean> {
  const handle = await openRegular(absolute);
  if (!handle) return true;
  try {
    // Like ripgrep, files with a NUL byte near the start are binary and skipped.
    if ((await readHead(handle, SNIFF_BYTES)).includes(0)) return true;
    let keepGoing = true;
    await scanLines(handle, {
      from: 1,
      to: Number.POSITIVE_INFINITY,
      maxLineBytes: MAX_LINE_BYTES,
      signal: search.signal,
      onLine: (line, text) => {
        if (text.includes('\u0000')) return false;
        if (regex.test(text)) keepGoing = collector.add({ file: relative, line, text: matchText(text) });
        return keepGoing;
      },
    });
    return keepGoing;
  } finally {
    await handle.close();
  }
}

/**
 * The JS engine: walks with fast-glob honouring .gitignore and reads each text file line by line. The regex is
 * the model's, so this runs in a worker thread the caller can stop (walk-runner.ts), never on the main thread.
 */
export async function grepWithJs(
  search: GrepSearch,
  collector: MatchCollector,
  tally?: WalkTally,
): Promise<ToolError | undefined> {
  const regex = compileJsPattern(search.pattern, search.caseSensitive);
  if (!(regex instanceof RegExp)) return regex;
  if (search.baseIsFile) {
    try {
      await searchFile(search.baseRel, search.baseAbsolute, regex, search, collector);
    } catch {
      // unreadable: no matches, as ripgrep
    }
    return undefined;
  }
  const include = search.include;
  const fromRoot = include !== undefined && include.includes('/');
  const files = walkProjectFiles(
    {
      projectRoot: search.projectRoot,
      baseRel: search.baseRel,
      patterns: [include === undefined ? '**/*' : fromRoot ? include : `**/${include}`],
      patternsFromRoot: fromRoot,
      dot: false,
      ignore: search.excludeNodeModules ? ['**/node_modules/**', 'node_modules/**'] : [],
      ...(search.screen ? { screen: search.screen } : {}),
      signal: search.signal,
    },
    tally,
  );
  for await (const file of files) {
    if (search.signal.aborted) break;
    try {
      if (!(await searchFile(file.relative, file.absolute, regex, search, collector))) break;
    } catch {
      // Unreadable files (permissions, vanished mid-walk) are skipped, as ripgrep does.
    }
  }
  return undefined;
}
