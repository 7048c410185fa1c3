import { loadDiff } from './lazy-modules.js';
import { builtinInput } from './builtin-input.js';
import { approvalTitle, requestApproval } from './approval.js';
import { defineTool } from './define-tool.js';
import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import { applyEdit, unifiedDiff } from './edit-core.js';
import { commitChange, loadTarget } from './file-change.js';
import { isControlFile } from './workspace.js';
import { toolResult } from './results.js';
import type { EditData } from './tool-data.js';

export const editTool = defineTool({
  name: 'Edit',
  promptFile: 'Edit.md',
  inputSchema: builtinInput('Edit'),
  permission: 'edit',
  preload: loadDiff,
  async run(input, ctx): Promise<ToolEnvelope> {
    const loaded = await loadTarget(ctx, input.path, true);
    if (!loaded.ok) return loaded.envelope;
    const target = loaded.target;
    const context = { path: target.relative, replace_all: input.replace_all };
    const outcome = applyEdit(target.content, input);
    if (!outcome.ok)
      return errorEnvelope('INVALID_PARAM', `Edit of ${target.relative} failed: ${outcome.message}`, { context });
    const diff = await unifiedDiff(target.relative, target.content, outcome.content);
    const denied = await requestApproval(ctx, {
      tool: 'Edit',
      title: approvalTitle('Edit', target.relative),
      detail: diff,
      input,
      controlFile: isControlFile(target.relative),
    });
    if (denied) return denied;
    const conflict = await commitChange(ctx, target, outcome.content);
    if (conflict) return conflict;
    const data: EditData = { path: target.relative, applied: true, replacements: outcome.replacements, diff };
    const count = `${outcome.replacements} replacement${outcome.replacements === 1 ? '' : 's'}`;
    return toolResult(data, `Edited ${target.relative} (${count}).\n${diff}`, {
      stats: { replacements: outcome.replacements },
      context,
    });
  },
});
