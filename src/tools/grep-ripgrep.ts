import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { posix } from 'node:path';
import { createInterface } from 'node:readline';
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
  // node:child_process directly: a process library cost the first search ~17 ms to load for nothing we use.
  const child = spawn(rgPath, argsFor(search), { cwd: search.projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'close').then(
    ([code]) => ({ code: typeof code === 'number' ? code : null, spawnFailed: false }),
    () => ({ code: null, spawnFailed: true }),
  );
  // A late 'error' (a failed kill after the exit) must not become an uncaught exception.
  child.on('error', () => undefined);
  const stop = (): void => {
    child.kill();
  };
  if (search.signal.aborted) stop();
  else search.signal.addEventListener('abort', stop, { once: true });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    // Only the first lines are ever shown; a flood of unreadable-file warnings is not kept.
    if (stderr.length < 4096) stderr += text;
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (!line.startsWith('{"type":"match"')) continue;
      const event = JSON.parse(line) as { data: { path: RgText; lines: RgText; line_number: number } };
      const text = decode(event.data.lines).replace(/\r?\n$/, '');
      const file = posix.normalize(decode(event.data.path));
      if (!collector.add({ file, line: event.data.line_number, text: matchText(text) })) {
        stop();
        break;
      }
    }
  } catch {
    // reading ends with an error when rg is killed or cannot start; the exit below says which
  } finally {
    lines.close();
    // Nothing more is read; release the pipe now rather than when rg has exited.
    child.stdout.destroy();
    search.signal.removeEventListener('abort', stop);
  }
  const result = await exited;
  if (search.signal.aborted) return { kind: 'interrupted' };
  if (collector.stoppedEarly) return { kind: 'done' };
  if (result.spawnFailed) return { kind: 'unavailable' };
  if (result.code === 2) {
    stderr = stderr.trim();
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
