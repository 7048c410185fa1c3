/**
 * Background tasks in Claude Code's stream-json: `system`/`task_started` when a Bash `run_in_background` shell
 * starts, `system`/`task_progress` when it writes output (at most once a second, its last line as the `summary`)
 * and `system`/`task_notification` when it ends (completed, failed, or stopped by TaskStop, `/tasks stop` or the
 * SDK's `stop_task`), in the SDK's SDKTaskStartedMessage / SDKTaskProgressMessage / SDKTaskNotificationMessage
 * shapes. Claude Code 2.x itself sends task_progress only for subagent tasks; a shell's progress is mca's.
 */
import { randomUUID } from 'node:crypto';
import { backgroundTasks, type BackgroundTaskInfo, type BackgroundTasks } from '../tools/processes/background-tasks.js';
import type { CcMessage } from './types.js';

function summaryOf(task: BackgroundTaskInfo): string {
  const how =
    task.status === 'completed'
      ? 'completed'
      : task.status === 'stopped'
        ? 'was stopped'
        : task.exitCode !== null
          ? `failed with exit code ${task.exitCode}`
          : `was killed by ${task.signal ?? 'a signal'}`;
  return `Background command "${task.command.slice(0, 200)}" ${how}`;
}

/** Writes a line for every start and end of a background task while subscribed; returns the unsubscribe. */
export function forwardTaskLines(
  sessionId: () => string,
  write: (line: CcMessage) => void,
  tasks: BackgroundTasks = backgroundTasks,
): () => void {
  return tasks.subscribe((event) => {
    const { task } = event;
    const envelope = { uuid: randomUUID(), session_id: sessionId() };
    if (event.kind === 'started') {
      write({
        type: 'system',
        subtype: 'task_started',
        task_id: task.id,
        tool_use_id: task.callId,
        description: task.command,
        task_type: 'local_bash',
        ...envelope,
      });
      return;
    }
    if (event.kind === 'progress') {
      write({
        type: 'system',
        subtype: 'task_progress',
        task_id: task.id,
        tool_use_id: task.callId,
        description: task.command,
        // A shell spends no tokens and calls no tools: only its running time counts.
        usage: { total_tokens: 0, tool_uses: 0, duration_ms: event.elapsedMs },
        summary: event.lastLine,
        ...envelope,
      });
      return;
    }
    write({
      type: 'system',
      subtype: 'task_notification',
      task_id: task.id,
      tool_use_id: task.callId,
      status: task.status === 'running' ? 'completed' : task.status,
      output_file: task.outputFile,
      summary: summaryOf(task),
      ...envelope,
    });
  });
}
