/**
 * Where a project sits in its git repository, from one `git rev-parse` that the first scan's index read
 * (index-stat.ts) and the watch's start (watched-scan.ts) share, rather than one process each.
 */
import { resolve } from 'node:path';
import { runGit } from './git-run.js';

export type GitWhere =
  | {
      ok: true;
      /** The work tree's top (absolute). */
      top: string;
      /** The project's path inside it: "" at the top, else ending in "/". */
      prefix: string;
      /** Absolute paths of the index, info/attributes and info/exclude. */
      index: string;
      infoAttributes: string;
      infoExclude: string;
    }
  | { ok: false; reason: string; final?: boolean };

export async function gitWhere(projectRoot: string, deadlineMs: number, signal: AbortSignal): Promise<GitWhere> {
  const run = await runGit(
    [
      'rev-parse',
      '--show-toplevel',
      '--show-prefix',
      '--git-path',
      'index',
      '--git-path',
      'info/attributes',
      '--git-path',
      'info/exclude',
    ],
    { cwd: projectRoot, maxBytes: 64 * 1024, deadlineMs, signal },
  );
  if (!run.ok) return run;
  const [top = '', prefix = '', index = '', infoAttributes = '', infoExclude = ''] = run.stdout
    .toString('utf8')
    .split('\n');
  return {
    ok: true,
    top,
    prefix,
    index: resolve(projectRoot, index),
    infoAttributes: resolve(projectRoot, infoAttributes),
    infoExclude: resolve(projectRoot, infoExclude),
  };
}
