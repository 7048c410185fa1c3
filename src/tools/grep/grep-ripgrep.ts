import { sessionEnvironment } from '../../config/child-environment.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { isInside } from '../../fs/contained-path.js';
import type { PathScreen } from '../../permissions/path-screen.js';
import type { ToolError } from '../registry/envelope.js';
import { GitignoreRules } from '../walking/gitignore.js';
import { loadPathScreen } from '../registry/lazy-modules.js';
import { matchText, type MatchCollector } from './grep-matches.js';
import { rgMatchEvents } from './rg-json-lines.js';
import { findExecutable } from '../processes/which.js';

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
  /** Deny/ask rules on paths: matches in files they cover are dropped (and counted). */
  screen?: PathScreen;
  signal: AbortSignal;
}

/** Absolute path of `rg` on PATH, or undefined. */
export function findRipgrep(pathEnv = sessionEnvironment().PATH ?? ''): string | undefined {
  return findExecutable('rg', pathEnv);
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
  // Long lines are still searched; what comes back is cut by rg-json-lines.ts (--max-columns skips --json).
  args.push(search.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (search.include !== undefined) args.push('--glob', search.include);
  if (search.excludeNodeModules) args.push('--glob', '!node_modules');
  args.push('--regexp', search.pattern, '--', search.baseRel);
  return args;
}

export type RipgrepOutcome =
  | { kind: 'done'; /** files whose matches a deny/ask rule dropped */ withheld: number }
  | { kind: 'error'; error: ToolError }
  | { kind: 'unavailable' }
  | { kind: 'interrupted' }
  | { kind: 'timeout' };

type FileVerdict = 'ok' | 'withheld' | 'outside' | 'ignored';

/**
 * Whether a file ripgrep reported may reach the model: inside the project by its real path (rg follows no links
 * while walking; this is the second guard), not covered by a deny/ask rule, and, when `include` is given, not
 * .gitignore'd (rg's --glob overrides .gitignore; the JS engine never does). Cached per file.
 */
function fileScreen(search: GrepSearch): (file: string) => Promise<FileVerdict> {
  const verdicts = new Map<string, FileVerdict>();
  let rootReal = search.projectRoot;
  try {
    rootReal = realpathSync(search.projectRoot);
  } catch {
    // the root was resolved by the caller; keep it as given
  }
  const gitignore =
    search.include !== undefined && !search.baseIsFile
      ? GitignoreRules.forBase(search.projectRoot, search.baseRel)
      : undefined;
  const judge = async (file: string): Promise<FileVerdict> => {
    const absolute = resolve(search.projectRoot, file);
    let real: string | undefined;
    try {
      real = realpathSync(absolute);
    } catch {
      real = undefined;
    }
    if (real === undefined || !isInside(rootReal, real)) return 'outside';
    if (search.screen) {
      const { withheldBy } = await loadPathScreen();
      if (withheldBy(search.screen, absolute, real)) return 'withheld';
    }
    if (gitignore && (await (await gitignore).ignores(file, false))) return 'ignored';
    return 'ok';
  };
  return async (file) => {
    let verdict = verdicts.get(file);
    if (!verdict) {
      verdict = await judge(file);
      verdicts.set(file, verdict);
    }
    return verdict;
  };
}

/** Runs ripgrep from the project root, streaming its JSON output into the collector. */
export async function grepWithRipgrep(
  rgPath: string,
  search: GrepSearch,
  collector: MatchCollector,
  deadlineMs = Number.POSITIVE_INFINITY,
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
  let timedOut = false;
  const timer = Number.isFinite(deadlineMs)
    ? setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, deadlineMs)
    : undefined;
  const screen = fileScreen(search);
  const withheldFiles = new Set<string>();
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    // Only the first lines are ever shown; a flood of unreadable-file warnings is not kept.
    if (stderr.length < 4096) stderr += text;
  });
  try {
    for await (const event of rgMatchEvents(child.stdout)) {
      const file = posix.normalize(event.path);
      const verdict = await screen(file);
      if (verdict !== 'ok') {
        if (verdict === 'withheld') withheldFiles.add(file);
        continue;
      }
      const text = event.text.replace(/\r?\n$/, '');
      if (!collector.add({ file, line: event.lineNumber, text: matchText(text) })) {
        stop();
        break;
      }
    }
  } catch {
    // reading ends with an error when rg is killed or cannot start; the exit below says which
  } finally {
    // Nothing more is read; release the pipe now rather than when rg has exited.
    child.stdout.destroy();
    search.signal.removeEventListener('abort', stop);
  }
  const result = await exited;
  clearTimeout(timer);
  if (search.signal.aborted) return { kind: 'interrupted' };
  if (timedOut) return { kind: 'timeout' };
  const done: RipgrepOutcome = { kind: 'done', withheld: withheldFiles.size };
  if (collector.stoppedEarly) return done;
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
  return done;
}
