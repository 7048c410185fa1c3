/**
 * LS's working code: reading the directory, the .gitignore and hidden rules, and the listing. Loaded with the
 * first call of a tool (tool-code.ts); the definition and the result forms stay in ls.ts.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { output } from 'zod/v4/core';
import type { BuiltinInputSchemas } from '../input/input-schemas.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { GitignoreRules } from './gitignore.js';
import { loadIgnore, loadPathScreen } from '../registry/lazy-modules.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { LsData } from '../registry/tool-data.js';
import { withheldNote } from './walk-outcome.js';
import { resolveInProject } from '../files/workspace.js';

/** Hidden unless include_hidden: noise for the model in almost every project. */
const ALWAYS_HIDDEN = new Set(['.git', 'node_modules']);

async function isDirectoryEntry(dir: string, name: string, isDir: boolean, isLink: boolean): Promise<boolean> {
  if (!isLink) return isDir;
  try {
    return (await stat(join(dir, name))).isDirectory();
  } catch {
    return false;
  }
}

export async function runLs(input: output<BuiltinInputSchemas['LS']>, ctx: ToolContext): Promise<ToolEnvelope> {
  const resolved = resolveInProject(ctx.projectRoot, input.path, ctx.extraRoots);
  if (!resolved.ok) return errorEnvelope(resolved.error.code, resolved.error.message);
  const { absolute, relative, root, rootRelative } = resolved;
  const context = { path: relative, offset: input.offset, limit: input.limit, include_hidden: input.include_hidden };
  let dirents;
  try {
    dirents = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return errorEnvelope('NOT_FOUND', `Directory not found: ${relative}.`, { context });
    if (code === 'ENOTDIR')
      return errorEnvelope('INVALID_PARAM', `${relative} is a file, not a directory; use Read.`, { context });
    if (code === 'EACCES') return errorEnvelope('ACCESS_DENIED', `No permission to list ${relative}.`, { context });
    throw error;
  }
  const rules = await GitignoreRules.forBase(root, rootRelative);
  const extra = (await loadIgnore())().add(input.ignore);
  const dirs: string[] = [];
  const files: string[] = [];
  let hidden = 0;
  // Names a deny/ask rule covers are left out of the listing, like the files Grep and Glob withhold.
  const screen = ctx.pathScreen?.('LS');
  const withheldBy = screen ? (await loadPathScreen()).withheldBy : undefined;
  let withheld = 0;
  for (const dirent of dirents) {
    const name = dirent.name;
    if (screen && withheldBy?.(screen, join(absolute, name))) {
      withheld += 1;
      continue;
    }
    const isDir = await isDirectoryEntry(absolute, name, dirent.isDirectory(), dirent.isSymbolicLink());
    const rel = relative === '.' ? name : `${relative}/${name}`;
    const userIgnored = extra.ignores(isDir ? `${name}/` : name);
    if (userIgnored) continue;
    const defaultHidden = name.startsWith('.') || ALWAYS_HIDDEN.has(name) || (await rules.ignores(rel, isDir));
    if (defaultHidden && !input.include_hidden) {
      hidden += 1;
      continue;
    }
    (isDir ? dirs : files).push(isDir ? `${name}/` : name);
  }
  dirs.sort();
  files.sort();
  const all = [...dirs, ...files];
  if (input.offset > 0 && input.offset >= all.length) {
    return errorEnvelope(
      'INVALID_PARAM',
      `offset ${input.offset} is past the end: ${relative} has ${all.length} entries.`,
      {
        context,
      },
    );
  }
  const entries = all.slice(input.offset, input.offset + input.limit);
  const truncated = input.offset + entries.length < all.length;
  const data: LsData = { path: relative, total: all.length, entries, offset: input.offset, truncated };
  const lines = [
    `${relative === '.' ? './' : `${relative}/`} (${all.length} entries)`,
    ...entries.map((entry) => `  ${entry}`),
  ];
  if (truncated) {
    lines.push(
      `(Showing ${input.offset + 1}-${input.offset + entries.length} of ${all.length}. Use offset=${input.offset + entries.length} for more.)`,
    );
  }
  if (hidden > 0)
    lines.push(`(${hidden} hidden: dotfiles, node_modules, .git or .gitignore'd; include_hidden=true shows them)`);
  if (withheld > 0) lines.push(withheldNote(withheld, ['entry', 'entries']));
  return toolResult(data, lines.join('\n'), {
    status: truncated ? 'partial' : 'success',
    stats: { entries: entries.length, hidden, withheld },
    context,
  });
}
