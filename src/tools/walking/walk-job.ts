/**
 * The work a walking tool hands to a worker thread (walk-runner.ts), and the code the worker runs for it. Only
 * plain data crosses the thread boundary. Everything here may meet a model- or repository-supplied pattern that
 * backtracks for hours (a Grep regex, a Glob pattern, a .gitignore line), which is why it never runs on the main
 * thread: the main thread stays free to handle Ctrl-C and stops the worker at the tool's deadline.
 */
import type { ToolError } from '../registry/envelope.js';
import { grepWithJs } from '../grep/grep-js.js';
import { MatchCollector } from '../grep/grep-matches.js';
import type { GrepSearch } from '../grep/grep-ripgrep.js';
import type { GrepMatch } from '../registry/tool-data.js';
import { walkProjectFiles, type WalkedFile, type WalkOptions, type WalkTally } from './walk-files.js';

/**
 * `markdown`: a fetched page's HTML converted for WebFetch. node-html-markdown is quadratic in the nesting depth
 * (20,000 nested `<blockquote>`s take hours), so a page, like a pattern, is never converted on the main thread.
 */
export type WalkJob =
  | { kind: 'glob'; walk: Omit<WalkOptions, 'signal'> }
  | { kind: 'grep'; search: Omit<GrepSearch, 'signal'> }
  | { kind: 'markdown'; html: string };

export type WalkJobResult =
  | { kind: 'glob'; files: WalkedFile[]; tally: WalkTally }
  | { kind: 'grep'; total: number; matches: GrepMatch[]; tally: WalkTally }
  | { kind: 'markdown'; markdown: string }
  | { kind: 'error'; error: ToolError };

export async function runWalkJob(job: WalkJob): Promise<WalkJobResult> {
  const tally: WalkTally = { withheld: 0, outside: 0 };
  const signal = new AbortController().signal;
  if (job.kind === 'markdown') {
    // A CommonJS module: under Node's ESM import and esbuild's bundle alike, its exports are `default`.
    const { NodeHtmlMarkdown } = (await import('node-html-markdown')).default;
    return { kind: 'markdown', markdown: NodeHtmlMarkdown.translate(job.html) };
  }
  if (job.kind === 'glob') {
    const files: WalkedFile[] = [];
    for await (const file of walkProjectFiles({ ...job.walk, signal }, tally)) files.push(file);
    return { kind: 'glob', files, tally };
  }
  const collector = new MatchCollector();
  const failure = await grepWithJs({ ...job.search, signal }, collector, tally);
  if (failure) return { kind: 'error', error: failure };
  return { kind: 'grep', total: collector.total, matches: collector.results(), tally };
}
