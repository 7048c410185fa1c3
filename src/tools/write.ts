import { loadDiff } from './lazy-modules.js';
import { builtinInput } from './builtin-input.js';
import { approvalTitle } from './approval.js';
import { defineTool, failedPlan, readyPlan, type ToolPlan } from './define-tool.js';
import type { ToolEnvelope } from './envelope.js';
import { lineCount, unifiedDiff } from './edit-core.js';
import { commitChange, loadTarget, type FileTarget } from './file-change.js';
import { isControlFile } from './workspace.js';
import { toolResult } from './results.js';
import type { ToolContext } from './tool-context.js';
import type { WriteData } from './tool-data.js';

export const writeTool = defineTool({
  name: 'Write',
  promptFile: 'Write.md',
  inputSchema: builtinInput('Write'),
  permission: 'edit',
  preload: loadDiff,
  async prepare(input, ctx): Promise<ToolPlan> {
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
      controlFile: isControlFile(target.relative),
    };
    return readyPlan(request, () => write(ctx, target, input.content));
  },
});

/** After approval: writes `content` (unless the file changed meanwhile) and reports what was written. */
async function write(ctx: ToolContext, target: FileTarget, content: string): Promise<ToolEnvelope> {
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
