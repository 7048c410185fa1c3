import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { loadToolCode } from '../registry/tool-code-loader.js';
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
  // The REPL warms the walk thread while it waits for the first prompt.
  preload: async () => (await loadToolCode()).warmWalkWorker(),
  async run(input, ctx) {
    return (await loadToolCode()).runGlob(input, ctx);
  },
});
