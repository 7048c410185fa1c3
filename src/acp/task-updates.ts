/**
 * Background tasks of an ACP session in the editor while they run: a Bash `run_in_background` call returns at once,
 * so without this the editor learns nothing of the task until the model reads it. Each task started by one of this
 * session's calls updates that call (`tool_call_update`): `in_progress` with the output's last line as it arrives
 * (the registry's progress events: the first output at once, then at most one a second), then `completed` or
 * `failed` with Claude Code's summary when it ends (src/claude-code/tasks.ts). An update that comes while the call
 * itself has not returned yet waits for its return (the call's own last update would hide it). A task that runs in
 * the client's terminal (client-terminal.ts) is left alone: the terminal in its call shows it live.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { DriverEvent } from '../driver/driver-events.js';
import { taskSummary } from '../claude-code/tasks.js';
import { backgroundTasks, type BackgroundTasks, type TaskEvent } from '../tools/processes/background-tasks.js';

type Send = (update: SessionUpdate) => void;

function text(value: string): Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>['content'] {
  return [{ type: 'content', content: { type: 'text', text: value } }];
}

/** The call's update for a progress or end event (none for a start: the call itself shows that). */
export function updateOf(event: TaskEvent): SessionUpdate | undefined {
  const { task } = event;
  if (event.kind === 'started') return undefined;
  if (event.kind === 'progress') {
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId: task.callId,
      status: 'in_progress',
      content: text(`Background task ${task.id} is running. Last output: ${event.lastLine}`),
    };
  }
  const summary = task.status === 'stopped' ? `Background command "${task.command}" was stopped` : taskSummary(task);
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: task.callId,
    status: task.status === 'failed' ? 'failed' : 'completed',
    content: text(`${summary} (task ${task.id}; output in ${task.outputFile})`),
  };
}

function isBackgroundCall(event: { tool: string; input: unknown }): boolean {
  const input = event.input as { run_in_background?: unknown } | null;
  return event.tool === 'Bash' && input?.run_in_background === true;
}

/** Per session: which calls started background tasks, and the updates waiting for their call to return. */
export class TaskCallUpdates {
  /** Background calls of this session: whether the call has returned, whether its command runs in a terminal. */
  private readonly calls = new Map<
    string,
    { returned: boolean; terminal: boolean; ended: boolean; waiting: SessionUpdate[] }
  >();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly send: Send,
    private readonly inTerminal: ReadonlySet<string> | undefined,
    tasks: BackgroundTasks = backgroundTasks,
  ) {
    this.unsubscribe = tasks.subscribe((event) => this.taskEvent(event));
  }

  /** Before the session's own updates of `event` (the terminal mark is gone once its tool_end is translated). */
  beforeEvent(event: DriverEvent): void {
    if (event.type === 'tool_start' && isBackgroundCall(event)) {
      this.calls.set(event.id, { returned: false, terminal: false, ended: false, waiting: [] });
    } else if (event.type === 'tool_end') {
      const call = this.calls.get(event.id);
      if (call) call.terminal = this.inTerminal?.has(event.id) === true;
    }
  }

  /** After the session's own updates of `event`: a returned call's waiting updates go out. */
  afterEvent(event: DriverEvent): void {
    if (event.type !== 'tool_end') return;
    const call = this.calls.get(event.id);
    if (!call) return;
    call.returned = true;
    const waiting = call.waiting.splice(0);
    if (!call.terminal) for (const update of waiting) this.send(update);
    if (call.ended || call.terminal) this.calls.delete(event.id);
  }

  close(): void {
    this.unsubscribe();
  }

  private taskEvent(event: TaskEvent): void {
    const call = this.calls.get(event.task.callId);
    if (!call || call.terminal || this.inTerminal?.has(event.task.callId)) return;
    const update = updateOf(event);
    if (!update) return;
    if (!call.returned) {
      // Only the newest progress waits; an end comes after it.
      if (event.kind === 'progress') call.waiting.splice(0, call.waiting.length, update);
      else call.waiting.push(update);
      call.ended = event.kind === 'ended';
      return;
    }
    this.send(update);
    if (event.kind === 'ended') this.calls.delete(event.task.callId);
  }
}
