/**
 * The records of background-tasks.ts: what a task is (for the registry and for its readers), the events listeners
 * hear, what a start asks for, and the `<task-notification>` an ended task becomes for the model.
 */
import { mkdirSync, mkdtempSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lines of a task's last output its notice carries. */
const TAIL_LINES = 5;

export type TaskStatus = 'running' | 'completed' | 'failed' | 'stopped';

export interface BackgroundTaskInfo {
  readonly id: string;
  readonly command: string;
  /** The tool_use id of the Bash call that started it. */
  readonly callId: string;
  readonly outputFile: string;
  readonly status: TaskStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Bytes written to the output file (at most the limit) and bytes dropped past it. */
  readonly outputBytes: number;
  readonly droppedBytes: number;
}

export type TaskEvent =
  | { kind: 'started'; task: BackgroundTaskInfo }
  | { kind: 'ended'; task: BackgroundTaskInfo }
  /** New output: its last non-empty line (at most 200 characters) and the time since the start. */
  | { kind: 'progress'; task: BackgroundTaskInfo; lastLine: string; elapsedMs: number };

export interface Task {
  /** `NAME=value` in the environment of every process of a task this process spawned (process-group.ts). */
  marker?: string;
  id: string;
  command: string;
  callId: string;
  outputFile: string;
  status: TaskStatus;
  exitCode: number | null;
  signal: string | null;
  pgid: number | undefined;
  /** Bytes the file holds for sure (written callbacks seen) and bytes handed to the stream. */
  flushed: number;
  queued: number;
  dropped: number;
  readOffset: number;
  /** The model has read the task's end (TaskOutput, TaskStop): no notice is due. */
  endSeen: boolean;
  noticed: boolean;
  /** The last characters of output, for the notice. */
  tail: string;
  ended: Promise<void>;
  stream: WriteStream;
  /** Resolves once every write handed to the stream so far is on disk (`flushed` counts it). */
  lastWrite: Promise<void>;
  /** A hosted task's: copies the host's new output into the file; stops it through the host. */
  sync?: () => Promise<void>;
  kill?: () => Promise<void>;
  /** Date.now() at the start and at the last progress event (0: none yet, or not yet announced). */
  startedAt: number;
  progressAt: number;
  announced: boolean;
}

export interface StartRequest {
  command: string;
  callId: string;
  cwd: string;
  shell: string;
  env: Record<string, string>;
  /** The session's directory for its own files (tool memory's), else a temporary directory. */
  dir?: string | undefined;
  /** What to run instead of `shell -c command` (bubblewrap around it: the sandbox). */
  argv?: { file: string; args: string[] } | undefined;
  /** Called once when the task has ended (the sandbox's clean-up of its command). */
  onEnded?: ((task: BackgroundTaskInfo) => void) | undefined;
}

/** A background command run by a command host (an ACP client's terminal), not by this process. */
export interface HostedTask {
  /** Everything the command wrote so far, as the host keeps it. */
  output(): Promise<string>;
  /** Resolves when the command has ended. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  kill(): Promise<void>;
  /** After the end: the host may let go of it. */
  release(): Promise<void>;
}

export type StartOutcome = { ok: true; task: BackgroundTaskInfo } | { ok: false; message: string };

/** New output of a task since the last read. */
export interface TaskRead {
  task: BackgroundTaskInfo;
  text: string;
  /** Bytes of new output skipped to keep this read within its bound (the start of it). */
  skippedBytes: number;
}

export function infoOf(task: Task): BackgroundTaskInfo {
  return {
    id: task.id,
    command: task.command,
    callId: task.callId,
    outputFile: task.outputFile,
    status: task.status,
    exitCode: task.exitCode,
    signal: task.signal,
    outputBytes: task.flushed,
    droppedBytes: task.dropped,
  };
}

/** One ended task as the model is told: Claude Code's `<task-notification>` form. */
export function noticeOf(task: Task): string {
  const lastLines = task.tail.replace(/\n$/, '').split('\n').slice(-TAIL_LINES).join('\n');
  const how =
    task.status === 'completed'
      ? 'completed (exit code 0)'
      : task.status === 'stopped'
        ? 'was stopped'
        : task.exitCode !== null
          ? `failed with exit code ${task.exitCode}`
          : `was killed by ${task.signal ?? 'a signal'}`;
  return [
    '<task-notification>',
    `<task-id>${task.id}</task-id>`,
    `<status>${task.status}</status>`,
    `<summary>Background command "${task.command.slice(0, 200)}" ${how}</summary>`,
    ...(lastLines === '' ? [] : [`Last lines of output:\n${lastLines}`]),
    `Read its output with TaskOutput (task_id "${task.id}") or from ${task.outputFile}.`,
    '</task-notification>',
  ].join('\n');
}

/** Where tasks' output files go: `<session dir>/tasks`, else one temporary directory (kept in `fallback`). */
export function outputDirFor(sessionDir: string | undefined, fallback: { dir?: string }): string {
  if (sessionDir !== undefined) {
    try {
      const dir = join(sessionDir, 'tasks');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    } catch {
      // fall through to a temporary directory
    }
  }
  fallback.dir ??= mkdtempSync(join(tmpdir(), 'mca-tasks-'));
  return fallback.dir;
}

/** Characters of the last output line a progress event carries. */
const PROGRESS_LINE_CHARS = 200;

/**
 * The progress event new output of `task` makes (its last non-empty line), when the task runs, was announced and
 * had none within `intervalMs`; marks the time. Undefined otherwise.
 */
export function progressEvent(task: Task, intervalMs: number): TaskEvent | undefined {
  const now = Date.now();
  if (!task.announced || task.status !== 'running' || now - task.progressAt < intervalMs) return undefined;
  const lastLine =
    task.tail
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? '';
  if (lastLine === '') return undefined;
  task.progressAt = now;
  return {
    kind: 'progress',
    task: infoOf(task),
    lastLine: lastLine.slice(-PROGRESS_LINE_CHARS),
    elapsedMs: now - task.startedAt,
  };
}
