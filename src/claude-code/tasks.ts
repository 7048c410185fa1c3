/**
 * Background tasks in Claude Code's stream-json, in the order Claude Code 2.1.332 sends them for a Bash
 * `run_in_background` shell (test/fixtures/claude-code-stream/background-task.json):
 * - start: `background_tasks_changed` (the live set, the new task in it), then `task_started` (`is_backgrounded`);
 * - output: `task_progress` (at most once a second, its last line as `summary`; mca's own: Claude Code 2.x sends it
 *   only for subagent tasks);
 * - end: `task_updated` (`patch.status` completed, failed or killed, and `end_time`), `task_notification`
 *   (completed, failed, or stopped by TaskStop, `/tasks stop` or the SDK's `stop_task`), then
 *   `background_tasks_changed` without it.
 * Shapes: the Agent SDK's SDKBackgroundTasksChangedMessage, SDKTaskStartedMessage, SDKTaskUpdatedMessage,
 * SDKTaskProgressMessage, SDKTaskNotificationMessage. Every line of one run carries its `run_id`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { backgroundTasks, type BackgroundTaskInfo, type BackgroundTasks } from '../tools/processes/background-tasks.js';
import type { CcBackgroundTaskEntry, CcMessage } from './types.js';

/** Each task's run id, made at its start: time-ordered (base 36, fixed width), then random. */
const runIds = new Map<string, string>();

function runIdOf(taskId: string): string {
  let id = runIds.get(taskId);
  if (id === undefined) {
    id = `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;
    runIds.set(taskId, id);
  }
  return id;
}

/** Claude Code's notification summary: the description alone for a stopped task. */
export function taskSummary(task: BackgroundTaskInfo): string {
  if (task.status === 'stopped') return task.command;
  const how =
    task.status === 'completed'
      ? `completed (exit code ${task.exitCode ?? 0})`
      : task.exitCode !== null
        ? `failed with exit code ${task.exitCode}`
        : `was killed by ${task.signal ?? 'a signal'}`;
  return `Background command "${task.command.slice(0, 200)}" ${how}`;
}

/** The live set as `background_tasks_changed` lists it. */
export function backgroundTaskEntries(tasks: BackgroundTasks = backgroundTasks): CcBackgroundTaskEntry[] {
  return tasks
    .list()
    .filter((task) => task.status === 'running')
    .map((task) => ({
      task_id: task.id,
      run_id: runIdOf(task.id),
      task_type: 'local_bash',
      description: task.command,
    }));
}

/** Writes the lines of every start, progress and end of a background task while subscribed; returns the unsubscribe. */
export function forwardTaskLines(
  sessionId: () => string,
  write: (line: CcMessage) => void,
  tasks: BackgroundTasks = backgroundTasks,
): () => void {
  const envelope = () => ({ uuid: randomUUID(), session_id: sessionId() });
  const changed = (): void =>
    write({ type: 'system', subtype: 'background_tasks_changed', tasks: backgroundTaskEntries(tasks), ...envelope() });
  return tasks.subscribe((event) => {
    const { task } = event;
    const ids = { task_id: task.id, run_id: runIdOf(task.id) };
    if (event.kind === 'started') {
      changed();
      write({
        type: 'system',
        subtype: 'task_started',
        ...ids,
        tool_use_id: task.callId,
        description: task.command,
        is_backgrounded: true,
        task_type: 'local_bash',
        ...envelope(),
      });
      return;
    }
    if (event.kind === 'progress') {
      write({
        type: 'system',
        subtype: 'task_progress',
        ...ids,
        tool_use_id: task.callId,
        description: task.command,
        // A shell spends no tokens and calls no tools: only its running time counts.
        usage: { total_tokens: 0, tool_uses: 0, duration_ms: event.elapsedMs },
        summary: event.lastLine,
        ...envelope(),
      });
      return;
    }
    const status = task.status === 'running' ? 'completed' : task.status;
    write({
      type: 'system',
      subtype: 'task_updated',
      ...ids,
      patch: { status: status === 'stopped' ? 'killed' : status, end_time: Date.now() },
      ...envelope(),
    });
    write({
      type: 'system',
      subtype: 'task_notification',
      ...ids,
      tool_use_id: task.callId,
      status,
      output_file: task.outputFile,
      summary: taskSummary(task),
      ...envelope(),
    });
    changed();
  });
}
