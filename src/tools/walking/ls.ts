import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { loadIgnore } from '../registry/lazy-modules.js';
import { loadToolCode } from '../registry/tool-code-loader.js';
import { clip, isFiniteNumber, isString, isStringArray } from '../../text/json-guards.js';
import type { ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  numberField,
  plural,
  stringField,
  truncatedNote,
} from '../registry/result-forms.js';

/** What history, the ledger and the transcript make of an LS result (DESIGN.md "ToolResultCompressor"). */
const lsMembers: ToolMembers = {
  compress: (data) => {
    const { path, total, entries } = data;
    if (!isString(path) || !isFiniteNumber(total) || !isStringArray(entries)) return undefined;
    const kept = entries.slice(0, LIMIT.lsEntries).map((entry) => clip(entry, LIMIT.entryChars));
    return {
      path: clip(path, LIMIT.pathChars),
      total,
      entries: kept,
      truncated: data.truncated === true || kept.length < total,
    };
  },
  shrink: (data) => (isString(data.path) ? `listed ${data.path}: ${count(data.total)} entries` : undefined),
  display: {
    title: (input) => stringField(input, 'path') ?? '.',
    summary: (data) =>
      `${plural(numberField(data, 'total') ?? 0, 'entry').replace('entrys', 'entries')}${truncatedNote(data)}`,
  },
};

export const lsTool = defineTool({
  name: 'LS',
  promptFile: 'LS.md',
  inputSchema: builtinInput('LS'),
  permission: 'none',
  kind: 'search',
  ...lsMembers,
  preload: () => Promise.all([loadIgnore(), loadToolCode()]),
  async run(input, ctx) {
    return (await loadToolCode()).runLs(input, ctx);
  },
});
