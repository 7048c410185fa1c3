/**
 * Background shells (Bash `run_in_background`): commands that run past the call that started them.
 *
 * Contract:
 * - Each task runs in its own process group (detached), tracked by process-group.ts, so every way mca ends (the
 *   REPL's exit, `-p` finishing, a signal, process 'exit') ends the group: no orphans. The child and its pipes are
 *   unref'd: a running task never keeps `-p` alive after its answer.
 * - stdout and stderr go, interleaved as they arrive, to one file on disk, at most `outputLimitBytes`; the rest is
 *   counted and dropped (the task goes on). Readers take the new bytes since their last read (TaskOutput).
 * - At most `maxTasks` run at once (`MCA_MAX_BACKGROUND_TASKS`, default 8): one more is refused, never queued.
 * - A task that ends, and whose end the model has not yet read, becomes a notice (`takeNotices`) that goes with the
 *   next request to the model; listeners (stream-json, the REPL) hear every start and end.
 * One registry per process (`backgroundTasks`): the process's sessions share it (-p and the REPL have one).
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolEnvelope } from '../registry/envelope.js';
import { terminateGroup, trackGroup, untrackGroup } from './process-group.js';
import { setTaskNoticeSource } from './task-notices.js';

export const DEFAULT_MAX_BACKGROUND_TASKS = 8;
/** Bytes of output kept on disk per task. */
export const BACKGROUND_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
/** Characters of a task's last output its notice carries (at most its last 5 lines). */
const TAIL_CHARS = 1000;
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

export type TaskEvent = { kind: 'started'; task: BackgroundTaskInfo } | { kind: 'ended'; task: BackgroundTaskInfo };

interface Task {
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
}

export interface StartRequest {
  command: string;
  callId: string;
  cwd: string;
  shell: string;
  env: Record<string, string>;
  /** The session's directory for its own files (tool memory's), else a temporary directory. */
  dir?: string | undefined;
}

export type StartOutcome = { ok: true; task: BackgroundTaskInfo } | { ok: false; message: string };

/** New output of a task since the last read. */
export interface TaskRead {
  task: BackgroundTaskInfo;
  text: string;
  /** Bytes of new output skipped to keep this read within its bound (the start of it). */
  skippedBytes: number;
}

function configuredMax(): number {
  const raw = Number(sessionEnvironment().MCA_MAX_BACKGROUND_TASKS);
  return Number.isInteger(raw) && raw >= 0 ? raw : DEFAULT_MAX_BACKGROUND_TASKS;
}

function infoOf(task: Task): BackgroundTaskInfo {
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

export class BackgroundTasks {
  private readonly tasks = new Map<string, Task>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private counter = 0;
  private fallbackDir: string | undefined;

  constructor(
    private readonly maxTasks: () => number = configuredMax,
    private readonly outputLimitBytes = BACKGROUND_OUTPUT_LIMIT_BYTES,
  ) {}

  /** Hears every start and end; returns the unsubscribe. */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): BackgroundTaskInfo[] {
    return [...this.tasks.values()].map(infoOf);
  }

  get(id: string): BackgroundTaskInfo | undefined {
    const task = this.tasks.get(id);
    return task ? infoOf(task) : undefined;
  }

  running(): number {
    return [...this.tasks.values()].filter((task) => task.status === 'running').length;
  }

  start(request: StartRequest): StartOutcome {
    const refused = this.refusal();
    if (refused) return refused;
    const child = spawn(request.shell, ['-c', request.command], {
      cwd: request.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: request.env,
    });
    return this.attach(child, request, '');
  }

  /**
   * Takes over a foreground command still running (Ctrl+B, the SDK's `background_tasks`): `child` runs in its
   * own process group, `earlier` is the output it wrote so far. The caller stops collecting its output and no
   * longer tracks its group. Refused when the limit is reached or the command has already ended.
   */
  adopt(child: ChildProcess, request: Omit<StartRequest, 'shell' | 'env' | 'cwd'>, earlier: string): StartOutcome {
    if (child.exitCode !== null || child.signalCode !== null) return { ok: false, message: 'The command has ended.' };
    return this.refusal() ?? this.attach(child, request, earlier);
  }

  private refusal(): StartOutcome | undefined {
    const max = this.maxTasks();
    if (this.running() < max) return undefined;
    return { ok: false, message: `At most ${max} background tasks may run at once (MCA_MAX_BACKGROUND_TASKS).` };
  }

  private attach(
    child: ChildProcess,
    request: Pick<StartRequest, 'command' | 'callId' | 'dir'>,
    earlier: string,
  ): StartOutcome {
    const id = `bash_${++this.counter}`;
    const outputFile = join(this.outputDir(request.dir), `${id}-${process.pid}.output`);
    const stream = createWriteStream(outputFile, { mode: 0o600 });
    stream.on('error', () => undefined);
    const task: Task = {
      id,
      command: request.command,
      callId: request.callId,
      outputFile,
      status: 'running',
      exitCode: null,
      signal: null,
      pgid: child.pid,
      flushed: 0,
      queued: 0,
      dropped: 0,
      readOffset: 0,
      endSeen: false,
      noticed: false,
      tail: '',
      ended: Promise.resolve(),
      stream,
    };
    if (child.pid !== undefined) trackGroup(child.pid);
    const write = (chunk: Buffer): void => {
      task.tail = (task.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
      const room = this.outputLimitBytes - task.queued;
      const kept = room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room));
      task.dropped += chunk.length - kept.length;
      if (kept.length === 0) return;
      task.queued += kept.length;
      stream.write(kept, () => (task.flushed += kept.length));
    };
    if (earlier !== '') write(Buffer.from(earlier));
    const streams = [child.stdout, child.stderr];
    for (const pipe of streams) {
      pipe?.on('data', write);
      // Unref'd pipes and child: a running task never holds the process open.
      (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    }
    child.unref();
    const closed = Promise.all(
      streams.map((pipe) => (pipe ? new Promise<void>((done) => pipe.once('close', () => done())) : undefined)),
    );
    task.ended = new Promise<void>((resolve) => {
      let finished = false;
      const finish = (code: number | null, signal: string | null, spawnError?: string): void => {
        if (finished) return;
        finished = true;
        if (child.pid !== undefined) untrackGroup(child.pid);
        if (spawnError !== undefined) write(Buffer.from(`Could not start the command: ${spawnError}\n`));
        if (task.status === 'running') task.status = code === 0 ? 'completed' : 'failed';
        task.exitCode = code;
        task.signal = signal;
        stream.end(() => {
          this.emit({ kind: 'ended', task: infoOf(task) });
          resolve();
        });
      };
      child.once('error', (error: Error) => finish(null, null, error.message));
      // 'close' would wait for a grandchild holding the pipes; the shell's exit ends the task, its pipes get a
      // short while to drain.
      child.once('exit', (code, signal) => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((done) => (timer = setTimeout(done, 250)));
        void Promise.race([closed, grace]).then(() => {
          clearTimeout(timer);
          finish(code, signal);
        });
      });
    });
    this.tasks.set(id, task);
    const info = infoOf(task);
    this.emit({ kind: 'started', task: info });
    return { ok: true as const, task: info };
  }

  /**
   * The task's output written since the last read, at most `maxBytes` (the newest kept when more). Marks the
   * task's end as seen when it had ended before this read.
   */
  async read(id: string, maxBytes = 30_000): Promise<TaskRead | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    const endedBefore = task.status !== 'running';
    const end = task.flushed;
    const from = Math.max(task.readOffset, end - maxBytes);
    const skippedBytes = from - task.readOffset;
    let text = '';
    if (end > from) {
      const handle = await open(task.outputFile, 'r');
      try {
        const buffer = Buffer.alloc(end - from);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
        text = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    }
    task.readOffset = end;
    if (endedBefore) task.endSeen = true;
    return { task: infoOf(task), text, skippedBytes };
  }

  /** Resolves when the task ended, the wait is over or the signal fires; true when it ended. */
  async waitEnded(id: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const task = this.tasks.get(id);
    if (!task) return false;
    if (task.status !== 'running') return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = await Promise.race([
      task.ended.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    return ended;
  }

  /** Stops a running task (its whole process group); undefined for an unknown id. */
  async stop(id: string): Promise<BackgroundTaskInfo | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    if (task.status === 'running') {
      task.status = 'stopped';
      task.endSeen = true;
      if (task.pgid !== undefined) await terminateGroup(task.pgid);
      await task.ended;
    }
    return infoOf(task);
  }

  /** Stops every running task (a session's end). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.tasks.values()].filter((t) => t.status === 'running').map((t) => this.stop(t.id)));
  }

  /**
   * `<task-notification>` blocks for tasks that ended since the last call and whose end the model has not read,
   * each given once; empty when none.
   */
  takeNotices(): string[] {
    const notices: string[] = [];
    for (const task of this.tasks.values()) {
      if (task.status === 'running' || task.endSeen || task.noticed) continue;
      task.noticed = true;
      notices.push(noticeOf(task));
    }
    return notices;
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  private outputDir(sessionDir: string | undefined): string {
    if (sessionDir !== undefined) {
      try {
        const dir = join(sessionDir, 'tasks');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        return dir;
      } catch {
        // fall through to a temporary directory
      }
    }
    this.fallbackDir ??= mkdtempSync(join(tmpdir(), 'mca-tasks-'));
    return this.fallbackDir;
  }
}

/** One ended task as the model is told: Claude Code's `<task-notification>` form. */
function noticeOf(task: Task): string {
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

/** The process's registry. */
export const backgroundTasks = new BackgroundTasks();
// Tool results and the next user message carry its notices without importing this module (task-notices.ts).
setTaskNoticeSource(() => taskNoticeReminder(backgroundTasks));

/** Pending notices as one `<system-reminder>` to append to what the model reads next; '' when none. */
export function taskNoticeReminder(tasks: BackgroundTasks = backgroundTasks): string {
  const notices = tasks.takeNotices();
  return notices.length === 0 ? '' : ['<system-reminder>', ...notices, '</system-reminder>'].join('\n');
}

/** `envelope` with the pending task notices appended to its text (unchanged when none). */
export function withTaskNotices(envelope: ToolEnvelope, tasks: BackgroundTasks = backgroundTasks): ToolEnvelope {
  const reminder = taskNoticeReminder(tasks);
  return reminder === '' ? envelope : { ...envelope, text: `${envelope.text}\n\n${reminder}` };
}
