import { z } from 'zod';
import { approvalTitle, requestApproval } from './approval.js';
import { defineTool } from './define-tool.js';
import { errorEnvelope, type ToolEnvelope } from './envelope.js';
import { applyEdit, unifiedDiff } from './edit-core.js';
import { commitChange, loadTarget } from './file-change.js';
import { isControlFile } from './workspace.js';
import { toolResult } from './results.js';
import type { EditData } from './tool-data.js';

const inputSchema = z.strictObject({
  path: z.string().describe('file relative to the project root.'),
  old_string: z
    .string()
    .describe(
      "text copied exactly from the file (indentation included, without Read's line-number prefix). It must occur exactly once: include enough surrounding lines to make it unique.",
    ),
  new_string: z.string().describe('the replacement; must differ from `old_string`.'),
  replace_all: z.boolean().default(false).describe('replace every occurrence instead (e.g. renaming a variable).'),
});

export const editTool = defineTool({
  name: 'Edit',
  promptFile: 'Edit.md',
  inputSchema,
  permission: 'edit',
  async run(input, ctx): Promise<ToolEnvelope> {
    const loaded = await loadTarget(ctx, input.path, true);
    if (!loaded.ok) return loaded.envelope;
    const target = loaded.target;
    const context = { path: target.relative, replace_all: input.replace_all };
    const outcome = applyEdit(target.content, input);
    if (!outcome.ok)
      return errorEnvelope('INVALID_PARAM', `Edit of ${target.relative} failed: ${outcome.message}`, { context });
    const diff = unifiedDiff(target.relative, target.content, outcome.content);
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
