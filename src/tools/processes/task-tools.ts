/**
 * The definitions of TaskOutput and TaskStop (background shells, background-tasks.ts): what the model is told and
 * how the transcript shows a call. Their code and the task registry load on the first call
 * (background-task-tools.ts), so listing the tools loads neither: a session that starts no background shell never does.
 */
import { builtinInput } from '../input/builtin-input.js';
import { defineTool } from '../registry/define-tool.js';
import type { ToolEnvelope } from '../registry/envelope.js';
import { once } from '../registry/lazy-modules.js';
import { stringField } from '../registry/result-forms.js';

const loadCalls = once(() => import('./background-task-tools.js'));

export const taskOutputTool = defineTool({
  name: 'TaskOutput',
  aliases: ['BashOutput', 'BashOutputTool', 'AgentOutputTool'],
  promptFile: 'TaskOutput.md',
  inputSchema: builtinInput('TaskOutput'),
  // Reads what a task the model started wrote; changes nothing.
  permission: 'none',
  kind: 'read',
  display: {
    title: (input) => stringField(input, 'task_id') ?? stringField(input, 'bash_id') ?? '',
    summary: (data) => `${stringField(data, 'status') ?? ''} · ${stringField(data, 'retrieval_status') ?? ''}`,
  },
  async run(input, ctx): Promise<ToolEnvelope> {
    return (await loadCalls()).runTaskOutput(input, ctx);
  },
});

export const taskStopTool = defineTool({
  name: 'TaskStop',
  aliases: ['KillShell', 'KillBash'],
  promptFile: 'TaskStop.md',
  inputSchema: builtinInput('TaskStop'),
  // Ends only a command the model itself started in the background (approved when it was started).
  permission: 'none',
  kind: 'execute',
  display: {
    title: (input) => stringField(input, 'task_id') ?? stringField(input, 'shell_id') ?? '',
    summary: (data) => stringField(data, 'message') ?? 'stopped',
  },
  async run(input): Promise<ToolEnvelope> {
    return (await loadCalls()).runTaskStop(input);
  },
});
