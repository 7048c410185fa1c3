/**
 * The model's side of background shells (background-tasks.ts): Bash `run_in_background` starts one, TaskOutput
 * reads its new output (Claude Code's name; its older BashOutput too), TaskStop ends it (older KillShell, KillBash).
 */
import type { ChildProcess } from 'node:child_process';
import type { output } from 'zod/v4/core';
import type { BuiltinInputSchemas } from '../input/input-schemas.js';
import { backgroundTasks, type BackgroundTaskInfo } from './background-tasks.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import { startOnHost } from './background-host.js';
import type { BoxedSpawn } from './bash-box.js';

const DEFAULT_WAIT_MS = 30_000;

/**
 * Hands a running foreground command to the task registry (Ctrl+B): its output so far is the task's first
 * output, and Bash stops collecting. Undefined when the registry refuses (the limit): the command stays in the
 * foreground.
 */
export function adoptInBackground(
  child: ChildProcess,
  input: { command: string },
  ctx: ToolContext,
  earlier: string,
): { kind: 'background'; taskId: string; outputFile: string } | undefined {
  for (const pipe of [child.stdout, child.stderr]) pipe?.removeAllListeners('data');
  const adopted = backgroundTasks.adopt(
    child,
    { command: input.command, callId: ctx.callId, dir: sessionDir(ctx) },
    earlier,
  );
  return adopted.ok ? { kind: 'background', taskId: adopted.task.id, outputFile: adopted.task.outputFile } : undefined;
}

/** The result of a foreground call whose command was moved to the background. */
export function movedToBackground(command: string, moved: { taskId: string; outputFile: string }): ToolEnvelope {
  const text =
    `The user moved this command to the background. Command running in background with ID: ${moved.taskId}. ` +
    `Output is being written to: ${moved.outputFile}. Read it with TaskOutput, stop it with TaskStop; you will be notified when it ends.`;
  const data = { command, stdout: text, stderr: '', background_task_id: moved.taskId, output_file: moved.outputFile };
  return toolResult(data, text, { context: { command, run_in_background: true } });
}

/** Where a session keeps its own files: tool memory's directory when it has one. */
function sessionDir(ctx: ToolContext): string | undefined {
  const memory = ctx.toolMemory as { dir?: unknown } | undefined;
  return typeof memory?.dir === 'string' ? memory.dir : undefined;
}

/** What a background command runs: the shell, or bubblewrap around it (the sandbox) with its clean-up. */
export interface BackgroundSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
  boxed?: BoxedSpawn | undefined;
}

/**
 * Bash with `run_in_background`: starts the task and returns at once with its id; on the front's command host (an
 * editor's terminal) when it offers background commands, else here. A boxed command runs in the box either way.
 */
export async function startBackgroundCommand(
  input: { command: string },
  ctx: ToolContext,
  spec: BackgroundSpec,
): Promise<ToolEnvelope> {
  const request = {
    command: input.command,
    callId: ctx.callId,
    dir: sessionDir(ctx),
    // The box's clean-up after its command (what it blocked is not told: a background task has no result to add to).
    onEnded: spec.boxed ? () => void spec.boxed?.finish({ failed: false, stdout: '', stderr: '' }) : undefined,
  };
  const host = ctx.source === 'model' ? ctx.commands : undefined;
  const started = host?.startBackground
    ? await startOnHost(host, request, ctx.projectRoot, spec)
    : backgroundTasks.start({ ...request, cwd: ctx.projectRoot, shell: spec.file, argv: spec, env: spec.env });
  if (!started.ok) {
    void spec.boxed?.finish({ failed: true, stdout: '', stderr: '' });
    return errorEnvelope('EXECUTION_ERROR', started.message, { context: { command: input.command } });
  }
  const { task } = started;
  const text =
    `Command running in background with ID: ${task.id}. Output is being written to: ${task.outputFile}. ` +
    'Read it with TaskOutput, stop it with TaskStop; you will be notified when it ends.';
  const data = {
    command: input.command,
    stdout: text,
    stderr: '',
    background_task_id: task.id,
    output_file: task.outputFile,
    ...(spec.boxed ? { sandbox: 'in the sandbox' } : {}),
  };
  return toolResult(data, text, { context: { command: input.command, run_in_background: true } });
}

function statusLine(task: BackgroundTaskInfo): string {
  if (task.status === 'running') return 'running';
  if (task.exitCode !== null) return `${task.status} (exit code ${task.exitCode})`;
  return `${task.status}${task.signal ? ` (${task.signal})` : ''}`;
}

function unknownTask(id: string): ToolEnvelope {
  const known = backgroundTasks.list().map((task) => task.id);
  return errorEnvelope(
    'NOT_FOUND',
    `No background task with id "${id}".${known.length > 0 ? ` Known: ${known.join(', ')}.` : ''}`,
  );
}

/** TaskOutput's call (its definition is in task-tools.ts, which loads this module on the first call). */
export async function runTaskOutput(
  input: output<BuiltinInputSchemas['TaskOutput']>,
  ctx: ToolContext,
): Promise<ToolEnvelope> {
  const id = input.task_id ?? input.bash_id;
  if (id === undefined) return errorEnvelope('INVALID_PARAM', 'TaskOutput needs `task_id`.');
  const known = backgroundTasks.get(id);
  if (!known) return unknownTask(id);
  let filter: RegExp | undefined;
  if (input.filter !== undefined && input.filter !== '') {
    try {
      filter = new RegExp(input.filter);
    } catch (error) {
      return errorEnvelope('INVALID_PARAM', `filter is not a valid regular expression: ${String(error)}`);
    }
  }
  const ended =
    input.block === false
      ? known.status !== 'running'
      : await backgroundTasks.waitEnded(id, input.timeout ?? DEFAULT_WAIT_MS, ctx.signal);
  const read = await backgroundTasks.read(id);
  if (!read) return unknownTask(id);
  const { task } = read;
  let output = read.text;
  if (filter)
    output = output
      .split('\n')
      .filter((line) => filter.test(line))
      .join('\n');
  const retrieval = ended ? 'success' : input.block === false ? 'not_ready' : 'timeout';
  const data = {
    retrieval_status: retrieval,
    task_id: task.id,
    task_type: 'local_bash',
    status: task.status,
    command: task.command,
    exit_code: task.exitCode,
    output,
    ...(read.skippedBytes > 0 ? { skipped_bytes: read.skippedBytes } : {}),
    ...(task.droppedBytes > 0 ? { dropped_bytes: task.droppedBytes } : {}),
  };
  const lines = [
    `Task ${task.id}: ${statusLine(task)}${retrieval === 'timeout' ? ' (still running after the wait)' : ''}`,
    ...(read.skippedBytes > 0 ? [`[${read.skippedBytes} earlier bytes skipped: see ${task.outputFile}]`] : []),
    output === '' ? '(no new output)' : output.replace(/\n$/, ''),
  ];
  return toolResult(data, lines.join('\n'), { context: { task_id: task.id } });
}

/** TaskStop's call (its definition is in task-tools.ts). */
export async function runTaskStop(input: output<BuiltinInputSchemas['TaskStop']>): Promise<ToolEnvelope> {
  const id = input.task_id ?? input.shell_id;
  if (id === undefined) return errorEnvelope('INVALID_PARAM', 'TaskStop needs `task_id`.');
  const before = backgroundTasks.get(id);
  if (!before) return unknownTask(id);
  if (before.status !== 'running') {
    return errorEnvelope('INVALID_PARAM', `Task ${id} is not running (${statusLine(before)}).`);
  }
  const task = (await backgroundTasks.stop(id)) ?? before;
  const message = `Successfully stopped task: ${task.id} (${task.command})`;
  const data = { message, task_id: task.id, task_type: 'local_bash', command: task.command };
  return toolResult(data, message, { context: { task_id: task.id } });
}
