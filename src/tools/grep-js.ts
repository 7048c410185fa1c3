import { open } from 'node:fs/promises';
import type { ToolError } from './envelope.js';
import type { GrepSearch } from './grep-ripgrep.js';
import { matchText, type MatchCollector } from './grep-matches.js';
import { scanLines } from './line-scanner.js';
import { walkProjectFiles } from './walk-files.js';

/** Bytes of one line held for matching; longer lines are matched on their head only. */
const MAX_LINE_BYTES = 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;

async function hasNulInHead(absolute: string): Promise<boolean> {
  const handle = await open(absolute, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

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

async function searchFile(
  relative: string,
  absolute: string,
  regex: RegExp,
  search: GrepSearch,
  collector: MatchCollector,
): Promise<boolean> {
  // Like ripgrep, files with a NUL byte near the start are binary and skipped.
  if (await hasNulInHead(absolute)) return true;
  let keepGoing = true;
  await scanLines(absolute, {
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
}

/** The JS engine: walks with fast-glob honouring .gitignore and reads each text file line by line. */
export async function grepWithJs(search: GrepSearch, collector: MatchCollector): Promise<ToolError | undefined> {
  const regex = compileJsPattern(search.pattern, search.caseSensitive);
  if (!(regex instanceof RegExp)) return regex;
  if (search.baseIsFile) {
    await searchFile(search.baseRel, search.baseAbsolute, regex, search, collector);
    return undefined;
  }
  const include = search.include;
  const fromRoot = include !== undefined && include.includes('/');
  const files = walkProjectFiles({
    projectRoot: search.projectRoot,
    baseRel: search.baseRel,
    patterns: [include === undefined ? '**/*' : fromRoot ? include : `**/${include}`],
    patternsFromRoot: fromRoot,
    dot: false,
    ignore: search.excludeNodeModules ? ['**/node_modules/**', 'node_modules/**'] : [],
    signal: search.signal,
  });
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
