import { loadDiff } from '../registry/lazy-modules.js';
import { builtinInput } from '../input/builtin-input.js';
import { approvalTitle } from '../registry/approval.js';
import { defineTool, failedPlan, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { isControlFile } from '../files/workspace.js';
import { toolResult } from '../registry/results.js';
import type { EditData } from '../registry/tool-data.js';
import { editMembers } from './edit-results.js';
import { numberField, plural } from '../registry/result-forms.js';

export const editTool = defineTool({
  name: 'Edit',
  promptFile: 'Edit.md',
  inputSchema: builtinInput('Edit'),
  permission: 'edit',
  kind: 'edit',
  compress: editMembers.compress,
  shrink: editMembers.shrink,
  locations: editMembers.locations,
  display: {
    title: editMembers.title,
    summary: (data) => plural(numberField(data, 'replacements') ?? 1, 'replacement'),
    diff: editMembers.diff,
    changes: editMembers.changes,
  },
  preload: loadDiff,
  async prepare(input, ctx): Promise<ToolPlan> {
    const { applyEdit, commitChange, loadTarget, unifiedDiff } = await import('./edit-code.js');
    const loaded = await loadTarget(ctx, input.path, true);
    if (!loaded.ok) return failedPlan(loaded.envelope);
    const target = loaded.target;
    const context = { path: target.relative, replace_all: input.replace_all };
    const outcome = applyEdit(target.content, input);
    if (!outcome.ok)
      return failedPlan(
        errorEnvelope('INVALID_PARAM', `Edit of ${target.relative} failed: ${outcome.message}`, { context }),
      );
    const diff = await unifiedDiff(target.relative, target.content, outcome.content);
    const request = {
      tool: 'Edit',
      title: approvalTitle('Edit', target.relative),
      detail: diff,
      input,
      controlFile: isControlFile(target.rootRelative, target.root),
    };
    return readyPlan(request, async (): Promise<ToolEnvelope> => {
      const conflict = await commitChange(ctx, target, outcome.content);
      if (conflict) return conflict;
      const data: EditData = { path: target.relative, applied: true, replacements: outcome.replacements, diff };
      const count = `${outcome.replacements} replacement${outcome.replacements === 1 ? '' : 's'}`;
      return toolResult(data, `Edited ${target.relative} (${count}).\n${diff}`, {
        stats: { replacements: outcome.replacements },
        context,
      });
    });
  },
});
