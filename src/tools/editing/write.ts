import { loadDiff } from '../registry/lazy-modules.js';
import { builtinInput } from '../input/builtin-input.js';
import { approvalTitle } from '../registry/approval.js';
import { defineTool, failedPlan, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import type { ToolEnvelope } from '../registry/envelope.js';
import type { FileTarget } from './file-change.js';
import { isControlFile } from '../files/workspace.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { WriteData } from '../registry/tool-data.js';
import { clip, isFiniteNumber, isString } from '../../text/json-guards.js';
import type { JsonRecord, ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  displayLines,
  headLines,
  numberField,
  plural,
  stringField,
  withCut,
} from '../registry/result-forms.js';

/** What history, the ledger and the transcript make of a Write result (DESIGN.md "ToolResultCompressor"). */
const writeMembers: ToolMembers = {
  compress: (data) => {
    const { path, action } = data;
    if (!isString(path) || (action !== 'created' && action !== 'overwritten')) return undefined;
    const result: JsonRecord = { path: clip(path, LIMIT.pathChars), action };
    if (isFiniteNumber(data.lines)) result.lines = data.lines;
    if (action === 'created' && isString(data.content)) {
      const head = headLines(data.content, LIMIT.writeLines, LIMIT.writeChars);
      result.content = head.text;
      withCut(result, 'content_lines_cut', head.cut);
    }
    return result;
  },
  shrink: (data) =>
    isString(data.path) ? `${String(data.action ?? 'wrote')} ${data.path} (${count(data.lines)} lines)` : undefined,
  locations: (input, data) =>
    isString(input.path) ? [{ path: input.path, kind: data.action === 'created' ? 'created' : 'edited' }] : [],
  display: {
    title: (input) => stringField(input, 'path') ?? '',
    changes: (input) => {
      const path = stringField(input, 'path');
      const content = stringField(input, 'content');
      return path === undefined || content === undefined ? [] : [{ path, oldText: null, newText: content }];
    },
    summary: (data) => {
      const verb = stringField(data, 'action') === 'overwritten' ? 'Overwrote' : 'Created';
      return `${verb} · ${plural(numberField(data, 'lines') ?? 0, 'line')}`;
    },
    diff: (data) => {
      const content = stringField(data, 'content');
      if (content === undefined) return undefined;
      return displayLines(content)
        .map((line) => `+${line}`)
        .join('\n');
    },
  },
};

export const writeTool = defineTool({
  name: 'Write',
  promptFile: 'Write.md',
  inputSchema: builtinInput('Write'),
  permission: 'edit',
  kind: 'edit',
  ...writeMembers,
  preload: loadDiff,
  async prepare(input, ctx): Promise<ToolPlan> {
    const { loadTarget, unifiedDiff } = await import('./edit-code.js');
    const loaded = await loadTarget(ctx, input.path, false);
    if (!loaded.ok) return failedPlan(loaded.envelope);
    const target = loaded.target;
    const exists = target.stamp !== undefined;
    const before = target.contentLoaded ? target.content : undefined;
    const request = {
      tool: 'Write',
      title: approvalTitle(exists ? 'Write' : 'Write (new file)', target.relative),
      detail: await unifiedDiff(target.relative, before, input.content),
      input,
      controlFile: isControlFile(target.rootRelative, target.root),
    };
    return readyPlan(request, () => write(ctx, target, input.content));
  },
});

/** After approval: writes `content` (unless the file changed meanwhile) and reports what was written. */
async function write(ctx: ToolContext, target: FileTarget, content: string): Promise<ToolEnvelope> {
  const { commitChange, lineCount } = await import('./edit-code.js');
  const exists = target.stamp !== undefined;
  const conflict = await commitChange(ctx, target, content);
  if (conflict) return conflict;
  const lines = lineCount(content);
  const bytes = Buffer.byteLength(content, 'utf8');
  const data: WriteData = { path: target.relative, action: exists ? 'overwritten' : 'created', lines, bytes, content };
  return toolResult(data, `${exists ? 'Overwrote' : 'Created'} ${target.relative} (${lines} lines, ${bytes} bytes).`, {
    stats: { lines, bytes },
    context: { path: target.relative },
  });
}
