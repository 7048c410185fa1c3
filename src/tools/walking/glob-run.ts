/**
 * Glob's working code: checking the pattern and the path, the walk (on a thread for a large tree) and the result.
 * Loaded with the first call of a tool (tool-code.ts); the definition and the result forms stay in glob.ts.
 */
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import type { output } from 'zod/v4/core';
import { GLOB_MAX_LIMIT } from '../input/input-limits.js';
import type { BuiltinInputSchemas } from '../input/input-schemas.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { GlobData } from '../registry/tool-data.js';
import { runWalk, withheldNote } from './walk-outcome.js';
import { checkWalkPattern } from './walk-pattern.js';
import { resolveInProject } from '../files/workspace.js';

export async function runGlob(input: output<BuiltinInputSchemas['Glob']>, ctx: ToolContext): Promise<ToolEnvelope> {
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
}
