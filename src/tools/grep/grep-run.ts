/**
 * Grep's working code: checking the path, running ripgrep (or the JS walk without it) and the result. Loaded with
 * the first call of a tool (tool-code.ts); the definition and the result forms stay in grep.ts.
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import type { BuiltinInputSchemas } from '../input/input-schemas.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { GREP_MAX_RESULTS, GREP_MAX_SCANNED, MatchCollector } from './grep-matches.js';
import type { GrepSearch } from './grep-ripgrep.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { GrepData, GrepMatch } from '../registry/tool-data.js';
import { timeoutEnvelope, runWalk, withheldNote } from '../walking/walk-outcome.js';
import { checkWalkPattern } from '../walking/walk-pattern.js';
import { toolDeadlineMs } from '../walking/walk-runner.js';
import { resolveInProject } from '../files/workspace.js';
import type { output } from 'zod/v4/core';

export type GrepEngineChoice = 'auto' | 'ripgrep' | 'js';

type GrepInput = output<BuiltinInputSchemas['Grep']>;

function chooseEngine(choice: GrepEngineChoice): GrepEngineChoice {
  if (choice !== 'auto') return choice;
  const fromEnv = sessionEnvironment().MCA_GREP_ENGINE?.trim().toLowerCase();
  if (fromEnv === 'js') return 'js';
  if (fromEnv === 'ripgrep' || fromEnv === 'rg') return 'ripgrep';
  return 'auto';
}

function render(data: GrepData, withheld: number): string {
  const where = data.path === '.' ? 'the project root' : data.path;
  const note = withheld > 0 ? `\n${withheldNote(withheld)}` : '';
  if (data.total === 0) return `No matches for /${data.pattern}/ in ${where}.${note}`;
  const lines = [
    `${data.total >= GREP_MAX_SCANNED ? `${data.total}+ (search stopped)` : data.total} matching line${data.total === 1 ? '' : 's'} for /${data.pattern}/ in ${where}` +
      (data.truncated ? ` (showing the first ${data.matches.length}; narrow path, include or pattern):` : ':'),
  ];
  let current: string | undefined;
  for (const match of data.matches) {
    if (match.file !== current) {
      current = match.file;
      lines.push(match.file);
    }
    lines.push(`  ${match.line}: ${match.text}`);
  }
  return lines.join('\n') + note;
}

export async function runGrep(input: GrepInput, ctx: ToolContext, configured: GrepEngineChoice): Promise<ToolEnvelope> {
  if (input.include !== undefined) {
    const refused = checkWalkPattern('include', input.include, '{"include": "*.ts", "path": "src"}');
    if (refused) return errorEnvelope(refused.code, refused.message);
  }
  const resolved = resolveInProject(ctx.projectRoot, input.path, ctx.extraRoots);
  if (!resolved.ok) return errorEnvelope(resolved.error.code, resolved.error.message);
  const context = {
    pattern: input.pattern,
    path: resolved.relative,
    include: input.include,
    case_sensitive: input.case_sensitive,
  };
  let baseIsFile: boolean;
  try {
    const kind = await stat(resolved.absolute);
    // A FIFO, socket or device would block the search (ripgrep opens a named path whatever it is).
    if (!kind.isFile() && !kind.isDirectory()) {
      return errorEnvelope('INVALID_PARAM', `${resolved.relative} is not a regular file or directory.`, {
        context,
      });
    }
    baseIsFile = kind.isFile();
  } catch {
    return errorEnvelope('NOT_FOUND', `Path not found: ${resolved.relative}.`, { context });
  }
  const screen = ctx.pathScreen?.('Grep');
  const search: GrepSearch = {
    // The walk runs in the root the path lies in (the project or an added directory).
    projectRoot: resolved.root,
    baseRel: resolved.rootRelative,
    baseAbsolute: resolved.absolute,
    baseIsFile,
    pattern: input.pattern,
    include: input.include,
    caseSensitive: input.case_sensitive,
    excludeNodeModules: !resolved.relative.split('/').includes('node_modules'),
    ...(screen ? { screen } : {}),
    signal: ctx.signal,
  };
  const choice = chooseEngine(configured);
  // The ripgrep engine's code loads on the first search.
  const { findRipgrep, grepWithRipgrep } = await import('./grep-ripgrep.js');
  const rgPath = choice === 'js' ? undefined : findRipgrep();
  let collector = new MatchCollector();
  let engine: GrepData['engine'] = 'js';
  let withheld = 0;
  if (rgPath) {
    const deadlineMs = toolDeadlineMs();
    const outcome = await grepWithRipgrep(rgPath, search, collector, deadlineMs);
    if (outcome.kind === 'error') return errorEnvelope(outcome.error.code, outcome.error.message, { context });
    if (outcome.kind === 'timeout') return timeoutEnvelope('Grep', deadlineMs, context);
    if (outcome.kind === 'done' || outcome.kind === 'interrupted') {
      engine = 'ripgrep';
      withheld = outcome.kind === 'done' ? outcome.withheld : 0;
    } else collector = new MatchCollector();
  }
  let jsResult: { total: number; matches: GrepMatch[] } | undefined;
  if (engine === 'js' && !ctx.signal.aborted) {
    const { signal: _signal, ...plain } = search;
    const walked = await runWalk('Grep', context, ctx.signal, { kind: 'grep', search: plain });
    if (!walked.ok) return walked.envelope;
    if (walked.result.kind !== 'grep') return errorEnvelope('INTERNAL_ERROR', 'Grep got the wrong result');
    jsResult = walked.result;
    withheld = walked.result.tally.withheld;
  }
  if (ctx.signal.aborted)
    return errorEnvelope('EXECUTION_ERROR', 'Grep was interrupted.', { data: { interrupted: true }, context });
  const found: GrepMatch[] = jsResult ? jsResult.matches : collector.results();
  // Files of an added directory are named by their absolute path, as the model would write them.
  const matches =
    resolved.root === ctx.projectRoot
      ? found
      : found.map((match) => ({ ...match, file: join(resolved.root, match.file) }));
  const total = jsResult ? jsResult.total : collector.total;
  const truncated = total > matches.length;
  const data: GrepData = {
    pattern: input.pattern,
    path: resolved.relative,
    total,
    matches,
    truncated,
    engine,
  };
  return toolResult(data, render(data, withheld), {
    status: truncated ? 'partial' : 'success',
    stats: { matches: total, shown: matches.length, limit: GREP_MAX_RESULTS, withheld },
    context,
  });
}
