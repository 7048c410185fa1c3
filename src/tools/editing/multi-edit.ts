import { loadDiff } from '../registry/lazy-modules.js';
import { builtinInput } from '../input/builtin-input.js';
import { approvalTitle } from '../registry/approval.js';
import { defineTool, failedPlan, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { isControlFile } from '../files/workspace.js';
import { toolResult } from '../registry/results.js';
import type { MultiEditData } from '../registry/tool-data.js';
import { editMembers } from './edit-results.js';
import { numberField, plural } from '../registry/result-forms.js';

export const multiEditTool = defineTool({
  name: 'MultiEdit',
  promptFile: 'MultiEdit.md',
  inputSchema: builtinInput('MultiEdit'),
  permission: 'edit',
  kind: 'edit',
  compress: editMembers.compress,
  shrink: editMembers.shrink,
  locations: editMembers.locations,
  display: {
    title: editMembers.title,
    summary: (data) =>
      `${plural(numberField(data, 'edits') ?? 0, 'edit')} · ${plural(numberField(data, 'replacements') ?? 0, 'replacement')}`,
    diff: editMembers.diff,
    changes: editMembers.changes,
  },
  preload: loadDiff,
  async prepare(input, ctx): Promise<ToolPlan> {
    const { applyEdit, commitChange, loadTarget, unifiedDiff } = await import('./edit-code.js');
    const loaded = await loadTarget(ctx, input.path, true);
    if (!loaded.ok) return failedPlan(loaded.envelope);
    const target = loaded.target;
    const context = { path: target.relative, edits: input.edits.length };
    // All edits apply in order to an in-memory copy; the file is written only if every one succeeds.
    let content = target.content;
    let replacements = 0;
    for (const [index, edit] of input.edits.entries()) {
      const outcome = applyEdit(content, edit);
      if (!outcome.ok) {
        return failedPlan(
          errorEnvelope(
            'INVALID_PARAM',
            `MultiEdit of ${target.relative} failed at edits[${index}]: ${outcome.message} No edit was applied; the file is unchanged.`,
            { context, data: { failed_edit: index, applied: false } },
          ),
        );
      }
      content = outcome.content;
      replacements += outcome.replacements;
    }
    const diff = await unifiedDiff(target.relative, target.content, content);
    const request = {
      tool: 'MultiEdit',
      title: approvalTitle('MultiEdit', `${target.relative}, ${input.edits.length} edits`),
      detail: diff,
      input,
      controlFile: isControlFile(target.rootRelative, target.root),
    };
    const edits = input.edits.length;
    return readyPlan(request, async (): Promise<ToolEnvelope> => {
      const conflict = await commitChange(ctx, target, content);
      if (conflict) return conflict;
      const data: MultiEditData = { path: target.relative, applied: true, replacements, edits, diff };
      return toolResult(data, `Applied ${edits} edits to ${target.relative} (${replacements} replacements).\n${diff}`, {
        stats: { edits, replacements },
        context,
      });
    });
  },
});
