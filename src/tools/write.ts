import { loadDiff } from './lazy-modules.js';
import { builtinInput } from './builtin-input.js';
import { approvalTitle, requestApproval } from './approval.js';
import { defineTool } from './define-tool.js';
import type { ToolEnvelope } from './envelope.js';
import { lineCount, unifiedDiff } from './edit-core.js';
import { commitChange, loadTarget } from './file-change.js';
import { isControlFile } from './workspace.js';
import { toolResult } from './results.js';
import type { WriteData } from './tool-data.js';

export const writeTool = defineTool({
  name: 'Write',
  promptFile: 'Write.md',
  inputSchema: builtinInput('Write'),
  permission: 'edit',
  preload: loadDiff,
  async run(input, ctx): Promise<ToolEnvelope> {
    const loaded = await loadTarget(ctx, input.path, false);
    if (!loaded.ok) return loaded.envelope;
    const target = loaded.target;
    const exists = target.stamp !== undefined;
    const before = target.contentLoaded ? target.content : undefined;
    const denied = await requestApproval(ctx, {
      tool: 'Write',
      title: approvalTitle(exists ? 'Write' : 'Write (new file)', target.relative),
      detail: await unifiedDiff(target.relative, before, input.content),
      input,
      controlFile: isControlFile(target.relative),
    });
    if (denied) return denied;
    const conflict = await commitChange(ctx, target, input.content);
    if (conflict) return conflict;
    const lines = lineCount(input.content);
    const bytes = Buffer.byteLength(input.content, 'utf8');
    const data: WriteData = {
      path: target.relative,
      action: exists ? 'overwritten' : 'created',
      lines,
      bytes,
      content: input.content,
    };
    return toolResult(
      data,
      `${exists ? 'Overwrote' : 'Created'} ${target.relative} (${lines} lines, ${bytes} bytes).`,
      {
        stats: { lines, bytes },
        context: { path: target.relative },
      },
    );
  },
});
