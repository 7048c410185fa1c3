import { loadExeca } from './lazy-modules.js';
import { posix } from 'node:path';
import type { ToolError } from './envelope.js';
import { matchText, type MatchCollector } from './grep-matches.js';
import { findExecutable } from './which.js';

/** One resolved search, shared by both engines. */
export interface GrepSearch {
  projectRoot: string;
  /** Project-relative file or directory to search. */
  baseRel: string;
  baseAbsolute: string;
  baseIsFile: boolean;
  pattern: string;
  include?: string;
  caseSensitive: boolean;
  /** Skip node_modules directories (unless the search is inside one). */
  excludeNodeModules: boolean;
  signal: AbortSignal;
}

/** Absolute path of `rg` on PATH, or undefined. */
export function findRipgrep(pathEnv = process.env.PATH ?? ''): string | undefined {
  return findExecutable('rg', pathEnv);
}

interface RgText {
  text?: string;
  bytes?: string;
}

function decode(value: RgText | undefined): string {
  if (!value) return '';
  if (typeof value.text === 'string') return value.text;
  return value.bytes ? Buffer.from(value.bytes, 'base64').toString('utf8') : '';
}

function argsFor(search: GrepSearch): string[] {
  // Only .gitignore files count (no global excludes, .ignore or .rgignore) so the JS engine can match exactly;
  // --no-require-git applies them outside git repositories too.
  const args = [
    '--json',
    '--no-config',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
  ];
  args.push(search.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (search.include !== undefined) args.push('--glob', search.include);
  if (search.excludeNodeModules) args.push('--glob', '!node_modules');
  args.push('--regexp', search.pattern, '--', search.baseRel);
  return args;
}

export type RipgrepOutcome =
  { kind: 'done' } | { kind: 'error'; error: ToolError } | { kind: 'unavailable' } | { kind: 'interrupted' };

/** Runs ripgrep from the project root, streaming its JSON output into the collector. */
export async function grepWithRipgrep(
  rgPath: string,
  search: GrepSearch,
  collector: MatchCollector,
): Promise<RipgrepOutcome> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  if (search.signal.aborted) controller.abort();
  else search.signal.addEventListener('abort', onAbort, { once: true });
  const { execa } = await loadExeca();
  const child = execa(rgPath, argsFor(search), {
    cwd: search.projectRoot,
    stdin: 'ignore',
    buffer: { stdout: false, stderr: true },
    reject: false,
    cancelSignal: controller.signal,
    stripFinalNewline: true,
  });
  try {
    for await (const line of child.iterable({ from: 'stdout' })) {
      if (!line.startsWith('{"type":"match"')) continue;
      const event = JSON.parse(line) as { data: { path: RgText; lines: RgText; line_number: number } };
      const text = decode(event.data.lines).replace(/\r?\n$/, '');
      const file = posix.normalize(decode(event.data.path));
      if (!collector.add({ file, line: event.data.line_number, text: matchText(text) })) {
        controller.abort();
        break;
      }
    }
  } catch {
    // iteration ends with an error when rg is cancelled or missing; the result below says which
  } finally {
    search.signal.removeEventListener('abort', onAbort);
  }
  const result = await child;
  if (search.signal.aborted) return { kind: 'interrupted' };
  if (collector.stoppedEarly) return { kind: 'done' };
  if (result.exitCode === undefined && result.failed) return { kind: 'unavailable' };
  if (result.exitCode === 2) {
    const stderr = String(result.stderr ?? '').trim();
    if (/regex parse error|error parsing glob|regex could not be compiled|literal .* not allowed/i.test(stderr)) {
      return {
        kind: 'error',
        error: {
          code: 'INVALID_PARAM',
          message: `Invalid pattern: ${stderr.split('\n').slice(0, 6).join(' ').replace(/\s+/g, ' ')}`,
        },
      };
    }
    // Exit 2 also means "some files could not be read"; matches found elsewhere still stand.
  }
  return { kind: 'done' };
}
