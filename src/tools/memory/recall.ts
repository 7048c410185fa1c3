/**
 * Recall (issue 13, deliverable 1): returns a stored full tool result by the reference its compressed history
 * entry carries, in numbered lines with Read's caps. Read-only; it never touches the project.
 */
import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { READ_MAX_LINE_CHARS, READ_MAX_OUTPUT_CHARS } from '../files/read-limits.js';
import { toolResult } from '../registry/results.js';
import { clip, isFiniteNumber, isString } from '../../text/json-guards.js';
import type { ToolMembers } from '../registry/define-tool.js';

export interface RecallData {
  ref: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  content: string;
  truncated: boolean;
}

function capLine(line: string): string {
  return line.length <= READ_MAX_LINE_CHARS
    ? line
    : `${line.slice(0, READ_MAX_LINE_CHARS)}… [line truncated: ${line.length} chars]`;
}

/** Recall's result is itself stored: history keeps where it pointed, not the text again. */
const recallMembers: ToolMembers = {
  storeResult: false,
  compress: (data) => {
    const { ref, start_line, end_line, total_lines } = data;
    if (!isString(ref) || !isFiniteNumber(start_line) || !isFiniteNumber(end_line) || !isFiniteNumber(total_lines)) {
      return undefined;
    }
    return { ref: clip(ref, 40), start_line, end_line, total_lines };
  },
};

export const recallTool = defineTool({
  name: 'Recall',
  promptFile: 'Recall.md',
  inputSchema: builtinInput('Recall'),
  permission: 'none',
  kind: 'read',
  ...recallMembers,
  async run(input, ctx): Promise<ToolEnvelope> {
    const context = { ref: input.ref, start_line: input.start_line, limit: input.limit };
    const stored = ctx.toolMemory?.recall(input.ref);
    if (stored === undefined) {
      return errorEnvelope('NOT_FOUND', `No stored tool result ${input.ref} in this session.`, { context });
    }
    const lines = stored.endsWith('\n') ? stored.slice(0, -1).split('\n') : stored.split('\n');
    if (input.start_line > lines.length) {
      return errorEnvelope(
        'INVALID_PARAM',
        `start_line ${input.start_line} is past the end: ${input.ref} has ${lines.length} lines.`,
        { context },
      );
    }
    const shown: string[] = [];
    let chars = 0;
    let line = input.start_line;
    for (; line < input.start_line + input.limit && line <= lines.length; line += 1) {
      const text = `${line}\t${capLine(lines[line - 1] ?? '')}`;
      if (chars + text.length > READ_MAX_OUTPUT_CHARS && shown.length > 0) break;
      shown.push(text);
      chars += text.length + 1;
    }
    const endLine = input.start_line + shown.length - 1;
    const truncated = endLine < lines.length;
    const footer = truncated ? `\n(${lines.length - endLine} more lines; continue with start_line ${endLine + 1})` : '';
    const data: RecallData = {
      ref: input.ref,
      start_line: input.start_line,
      end_line: endLine,
      total_lines: lines.length,
      content: shown.join('\n'),
      truncated,
    };
    return toolResult(data, `${data.content}${footer}`, { context });
  },
});
