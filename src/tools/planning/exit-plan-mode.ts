/**
 * ExitPlanMode (plan mode, issue 15): the model presents its plan and asks the user to approve it. In plan mode
 * only read-only tools run; the approver shows the plan to the user, who approves it (the front end then switches
 * the permission mode) or keeps planning with a note. Outside plan mode it only acknowledges. Self-contained so
 * the tool definitions can be reshaped around it.
 */
import { builtinInput } from '../input/builtin-input.js';
import { defineTool, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import { toolResult } from '../registry/results.js';

export const EXIT_PLAN_MODE = 'ExitPlanMode';

export interface ExitPlanModeData {
  approved: true;
  plan_chars: number;
}

export const exitPlanModeTool = defineTool({
  name: EXIT_PLAN_MODE,
  promptFile: 'ExitPlanMode.md',
  inputSchema: builtinInput('ExitPlanMode'),
  // Changes nothing itself, but asks the user; the approval switches the mode.
  permission: 'plan',
  kind: 'think',
  // The call's line names the plan by its size; the plan itself is shown rendered (dialog, then transcript).
  display: {
    title: (input) => (typeof input.plan === 'string' ? `${input.plan.split('\n').length} lines` : ''),
    summary: () => 'plan approved',
  },
  prepare(input): Promise<ToolPlan> {
    const request = { tool: EXIT_PLAN_MODE, title: 'the plan', detail: input.plan, input };
    const data: ExitPlanModeData = { approved: true, plan_chars: input.plan.length };
    return Promise.resolve(
      readyPlan(request, () =>
        Promise.resolve(
          toolResult(
            data,
            'The user approved the plan. Plan mode is over: carry it out now, step by step, keeping the todo list current.',
          ),
        ),
      ),
    );
  },
});
