import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { loadToolCode } from '../registry/tool-code-loader.js';
import { compressImageRead, isImageRead } from './read-image.js';
import { clip, isFiniteNumber, isString } from '../../text/json-guards.js';
import type { JsonRecord, ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  headLines,
  numberField,
  plural,
  stringField,
  withCut,
} from '../registry/result-forms.js';

export { READ_FULL_SCAN_BYTES, READ_MAX_LINE_CHARS, READ_MAX_OUTPUT_CHARS } from './read-limits.js';

/** What history, the ledger and the transcript make of a Read result (DESIGN.md "ToolResultCompressor"). */
const readMembers: ToolMembers = {
  compress: (data) => {
    if (isImageRead(data)) return compressImageRead(data);
    const { path, start_line, end_line, total_lines, content } = data;
    if (!isString(path) || !isFiniteNumber(start_line) || !isFiniteNumber(end_line) || !isString(content)) {
      return undefined;
    }
    const head = headLines(content, LIMIT.readLines, LIMIT.readChars);
    const result: JsonRecord = { path: clip(path, LIMIT.pathChars), start_line, end_line };
    if (isFiniteNumber(total_lines)) result.total_lines = total_lines;
    result.content = head.text;
    if (isFiniteNumber(data.mtime_ms)) result.mtime_ms = data.mtime_ms;
    return withCut(result, 'lines_cut', head.cut);
  },
  shrink: (data) =>
    isImageRead(data)
      ? `read ${data.image}`
      : isString(data.path)
        ? `read ${data.path} lines ${count(data.start_line)}-${count(data.end_line)} of ${count(data.total_lines)}`
        : undefined,
  locations: (input) => (isString(input.path) ? [{ path: input.path, kind: 'read' }] : []),
  display: {
    line: (input) => {
      const start = numberField(input, 'start_line');
      return start !== undefined && start > 0 ? start : undefined;
    },
    title: (input) => {
      const path = stringField(input, 'path') ?? '';
      const start = numberField(input, 'start_line');
      return start && start > 1 ? `${path}:${start}` : path;
    },
    summary: (data) => {
      if (isImageRead(data)) return data.image;
      const start = numberField(data, 'start_line') ?? 1;
      const end = numberField(data, 'end_line') ?? start - 1;
      const total = numberField(data, 'total_lines');
      const lines = Math.max(0, end - start + 1);
      const of = total !== undefined && total !== lines ? ` of ${total}` : '';
      const external = data.modified_externally === true ? ' · modified externally' : '';
      return `${plural(lines, 'line')}${of}${external}`;
    },
  },
};

export const readTool = defineTool({
  name: 'Read',
  promptFile: 'Read.md',
  inputSchema: builtinInput('Read'),
  permission: 'none',
  kind: 'read',
  ...readMembers,
  preload: loadToolCode,
  async run(input, ctx) {
    return (await loadToolCode()).runRead(input, ctx);
  },
});
