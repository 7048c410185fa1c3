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
 *   next request to the model; listeners (stream-json, the REPL) hear every start and end, and progress: output
 *   arrived (its last line), at most once per `PROGRESS_INTERVAL_MS` per task, the first output at once.
 * - A task may run elsewhere (`attachHosted`: an ACP client's terminal): its output is copied into the same file
 *   whenever it is read and at its end, it is stopped through its host, and it ends when the host says it exited.
 * One registry per process (`backgroundTasks`): the process's sessions share it (-p and the REPL have one).
 */
import { sessionEnvironment } from '../../config/child-environment.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolEnvelope } from '../registry/envelope.js';
import { killMarked, terminateGroup, trackGroup, trackMarker, untrackGroup } from './process-group.js';
import {
  infoOf,
  noticeOf,
  outputDirFor,
  progressEvent,
  type BackgroundTaskInfo,
  type HostedTask,
  type StartOutcome,
  type StartRequest,
  type Task,
  type TaskEvent,
  type TaskRead,
} from './background-task-record.js';

export type {
  BackgroundTaskInfo,
  HostedTask,
  StartOutcome,
  StartRequest,
  TaskEvent,
  TaskRead,
  TaskStatus,
} from './background-task-record.js';
import { setTaskNoticeSource } from './task-notices.js';

export const DEFAULT_MAX_BACKGROUND_TASKS = 8;
/** The environment variable that marks a task's processes (`<mca pid>.<task number>`). */
export const TASK_MARKER = 'MCA_BACKGROUND_TASK';
/** Bytes of output kept on disk per task. */
export const BACKGROUND_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
/** Characters of a task's last output kept for its notice (background-task-record.ts). */
const TAIL_CHARS = 1000;
/** Least time between two progress events of one task. */
export const PROGRESS_INTERVAL_MS = 1000;

function configuredMax(): number {
  const raw = Number(sessionEnvironment().MCA_MAX_BACKGROUND_TASKS);
  return Number.isInteger(raw) && raw >= 0 ? raw : DEFAULT_MAX_BACKGROUND_TASKS;
}

export class BackgroundTasks {
  private readonly tasks = new Map<string, Task>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private counter = 0;
  private readonly fallback: { dir?: string } = {};

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
    const argv = request.argv ?? { file: request.shell, args: ['-c', request.command] };
    // Every process of the task carries the marker, however it left the group (the sandbox's namespace init
    // calls setsid before it is tied to its parent): a stop and mca's exit end those too.
    const marker = `${process.pid}.${this.counter + 1}`;
    trackMarker(`${TASK_MARKER}=${marker}`);
    const child = spawn(argv.file, argv.args, {
      cwd: request.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...request.env, [TASK_MARKER]: marker },
    });
    const started = this.attach(child, request, '');
    const task = started.ok ? this.tasks.get(started.task.id) : undefined;
    if (task) task.marker = `${TASK_MARKER}=${marker}`;
    return started;
  }

  /** Registers a command its host (an ACP client's terminal) started; refused when the limit is reached. */
  attachHosted(
    request: Pick<StartRequest, 'command' | 'callId' | 'dir' | 'onEnded'>,
    hosted: HostedTask,
  ): StartOutcome {
    const refused = this.refusal();
    if (refused) return refused;
    const { task, write } = this.register(request, undefined);
    let copied = 0;
    task.sync = async () => {
      const text = await hosted.output().catch(() => '');
      // The host keeps a bounded buffer: when it dropped its start, what is new cannot be told; the file keeps what
      // it has.
      if (text.length > copied) write(Buffer.from(text.slice(copied)));
      copied = Math.max(copied, text.length);
      await task.lastWrite;
    };
    task.kill = () => hosted.kill().catch(() => undefined);
    task.ended = hosted.exited
      .catch(() => ({ code: null, signal: null }))
      .then(async ({ code, signal }) => {
        await task.sync?.();
        await new Promise<void>((resolve) => this.finish(task, request, code, signal, resolve));
        await hosted.release().catch(() => undefined);
      });
    return this.announce(task);
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

  /** A new task record with its output file, and the function that takes its output in (bounded, to the file). */
  private register(
    request: Pick<StartRequest, 'command' | 'callId' | 'dir'>,
    pgid: number | undefined,
  ): { task: Task; write: (chunk: Buffer) => void } {
    const id = `bash_${++this.counter}`;
    const outputFile = join(outputDirFor(request.dir, this.fallback), `${id}-${process.pid}.output`);
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
      pgid,
      flushed: 0,
      queued: 0,
      dropped: 0,
      readOffset: 0,
      endSeen: false,
      noticed: false,
      tail: '',
      ended: Promise.resolve(),
      stream,
      lastWrite: Promise.resolve(),
      startedAt: Date.now(),
      progressAt: 0,
      announced: false,
    };
    const write = (chunk: Buffer): void => {
      task.tail = (task.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
      const room = this.outputLimitBytes - task.queued;
      const kept = room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room));
      task.dropped += chunk.length - kept.length;
      if (kept.length > 0) {
        task.queued += kept.length;
        task.lastWrite = new Promise<void>((resolve) =>
          stream.write(kept, () => {
            task.flushed += kept.length;
            resolve();
          }),
        );
      }
      this.progress(task);
    };
    return { task, write };
  }

  /** Records the end of a task, closes its file, tells the listeners, then calls `done`. */
  private finish(
    task: Task,
    request: Pick<StartRequest, 'onEnded'>,
    code: number | null,
    signal: string | null,
    done: () => void,
  ): void {
    if (task.status === 'running') task.status = code === 0 ? 'completed' : 'failed';
    task.exitCode = code;
    task.signal = signal;
    task.stream.end(() => {
      const info = infoOf(task);
      try {
        request.onEnded?.(info);
      } catch {
        // the clean-up's failure is its own
      }
      this.emit({ kind: 'ended', task: info });
      done();
    });
  }

  /** Adds the task to the registry and tells the listeners it started. */
  private announce(task: Task): StartOutcome {
    this.tasks.set(task.id, task);
    const info = infoOf(task);
    this.emit({ kind: 'started', task: info });
    task.announced = true;
    return { ok: true as const, task: info };
  }

  private attach(
    child: ChildProcess,
    request: Pick<StartRequest, 'command' | 'callId' | 'dir' | 'onEnded'>,
    earlier: string,
  ): StartOutcome {
    const { task, write } = this.register(request, child.pid);
    if (child.pid !== undefined) trackGroup(child.pid);
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
        this.finish(task, request, code, signal, resolve);
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
    return this.announce(task);
  }

  /**
   * The task's output written since the last read, at most `maxBytes` (the newest kept when more). Marks the
   * task's end as seen when it had ended before this read.
   */
  async read(id: string, maxBytes = 30_000): Promise<TaskRead | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    const endedBefore = task.status !== 'running';
    if (!endedBefore) await task.sync?.();
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
      if (task.kill) await task.kill();
      else if (task.pgid !== undefined) await terminateGroup(task.pgid);
      if (task.marker !== undefined) killMarked(task.marker);
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

  /** A progress event for new output of a running, announced task, unless one went out within the interval. */
  private progress(task: Task): void {
    const event = progressEvent(task, PROGRESS_INTERVAL_MS);
    if (event) this.emit(event);
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
