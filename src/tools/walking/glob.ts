import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { GLOB_MAX_LIMIT } from '../input/input-limits.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import type { GlobData } from '../registry/tool-data.js';
import { runWalk, withheldNote } from './walk-outcome.js';
import { checkWalkPattern } from './walk-pattern.js';
import { warmWalkWorker } from './walk-runner.js';
import { resolveInProject } from '../files/workspace.js';
import { clip, isFiniteNumber, isString, isStringArray } from '../../text/json-guards.js';
import type { ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  numberField,
  plural,
  searchTitle,
  truncatedNote,
} from '../registry/result-forms.js';

/** What history, the ledger and the transcript make of a Glob result (DESIGN.md "ToolResultCompressor"). */
const globMembers: ToolMembers = {
  compress: (data) => {
    const { pattern, total, files } = data;
    if (!isString(pattern) || !isFiniteNumber(total) || !isStringArray(files)) return undefined;
    const kept = files.slice(0, LIMIT.globFiles).map((file) => clip(file, LIMIT.entryChars));
    return {
      pattern: clip(pattern, LIMIT.pathChars),
      total,
      files: kept,
      truncated: data.truncated === true || kept.length < total,
    };
  },
  shrink: (data) => (isString(data.pattern) ? `glob ${data.pattern}: ${count(data.total)} files` : undefined),
  display: {
    title: searchTitle,
    summary: (data) => `${plural(numberField(data, 'total') ?? 0, 'file')}${truncatedNote(data)}`,
  },
};

export const globTool = defineTool({
  name: 'Glob',
  promptFile: 'Glob.md',
  inputSchema: builtinInput('Glob'),
  permission: 'none',
  kind: 'search',
  ...globMembers,
  preload: warmWalkWorker,
  async run(input, ctx): Promise<ToolEnvelope> {
    const { pattern } = input;
    const refused = checkWalkPattern('pattern', pattern, '{"pattern": "**/*.ts", "path": "src"}');
    if (refused) return errorEnvelope(refused.code, refused.message);
    const resolved = resolveInProject(ctx.projectRoot, input.path, ctx.extraRoots);
    if (!resolved.ok) return errorEnvelope(resolved.error.code, resolved.error.message);
    const { absolute, relative, root, rootRelative } = resolved;
    const context = { pattern, path: relative, limit: input.limit };
    try {
      if (!(await stat(absolute)).isDirectory()) {
        return errorEnvelope('INVALID_PARAM', `path ${relative} is a file; Glob searches a directory.`, { context });
      }
    } catch {
      return errorEnvelope('NOT_FOUND', `Directory not found: ${relative}.`, { context });
    }
    const wantsNodeModules = pattern.includes('node_modules') || relative.split('/').includes('node_modules');
    const screen = ctx.pathScreen?.('Glob');
    const walked = await runWalk('Glob', context, ctx.signal, {
      kind: 'glob',
      walk: {
        // The walk runs in the root the path lies in (the project or an added directory).
        projectRoot: root,
        baseRel: rootRelative,
        patterns: [pattern],
        dot: true,
        ignore: wantsNodeModules ? [] : ['**/node_modules/**'],
        ...(screen ? { screen } : {}),
      },
    });
    if (!walked.ok) return walked.envelope;
    if (walked.result.kind !== 'glob') return errorEnvelope('INTERNAL_ERROR', 'Glob got the wrong result', { context });
    const withheld = walked.result.tally.withheld;
    // Files of an added directory are named by their absolute path, as the model would write them.
    const named = (file: string): string => (root === ctx.projectRoot ? file : join(root, file));
    const found = walked.result.files.map((file) => ({ file: named(file.relative), mtimeMs: file.mtimeMs }));
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const files = found.slice(0, input.limit).map((entry) => entry.file);
    const truncated = found.length > files.length;
    const data: GlobData = { pattern, path: relative, total: found.length, files, truncated };
    const where = relative === '.' ? 'the project root' : relative;
    const head =
      found.length === 0
        ? `No files match ${pattern} in ${where}.`
        : `${found.length === 1 ? '1 file matches' : `${found.length} files match`} ${pattern} in ${where} (newest first):`;
    const tail = truncated
      ? [`(Showing ${files.length} of ${found.length}. Narrow the pattern or raise limit, max ${GLOB_MAX_LIMIT}.)`]
      : [];
    if (withheld > 0) tail.push(withheldNote(withheld));
    return toolResult(data, [head, ...files, ...tail].join('\n'), {
      status: truncated ? 'partial' : 'success',
      stats: { files: found.length, withheld },
      context,
    });
  },
});
