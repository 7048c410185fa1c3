/**
 * `/tasks` in the REPL: the background shells of this process (background-tasks.ts). `/tasks` lists them,
 * `/tasks <id>` shows the end of one's output (without taking it from the model's next TaskOutput read),
 * `/tasks stop <id>` stops one. Everything is said through the REPL's notices.
 */
import { open } from 'node:fs/promises';
import { backgroundTasks, type BackgroundTaskInfo, type BackgroundTasks } from '../tools/processes/background-tasks.js';

const SHOWN_BYTES = 4000;
const SHOWN_LINES = 20;

type Notice = (text: string, tone?: 'info' | 'warning' | 'error') => void;

function statusOf(task: BackgroundTaskInfo): string {
  if (task.status === 'running') return 'running';
  return task.exitCode !== null ? `${task.status}, exit ${task.exitCode}` : `${task.status}`;
}

/** One line per task: `bash_1  running  npm run dev`. */
export function taskLines(tasks: readonly BackgroundTaskInfo[]): string[] {
  return tasks.map(
    (task) => `${task.id}  ${statusOf(task)}  ${task.command.replace(/\s*\n\s*/g, ' ⏎ ').slice(0, 100)}`,
  );
}

async function outputTail(task: BackgroundTaskInfo): Promise<string> {
  const from = Math.max(0, task.outputBytes - SHOWN_BYTES);
  const handle = await open(task.outputFile, 'r');
  try {
    const buffer = Buffer.alloc(task.outputBytes - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/\n$/, '').split('\n').slice(-SHOWN_LINES).join('\n');
  } finally {
    await handle.close();
  }
}

export async function tasksCommand(
  args: string,
  notice: Notice,
  tasks: BackgroundTasks = backgroundTasks,
): Promise<void> {
  const words = args
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) {
    const list = tasks.list();
    if (list.length === 0) return notice('No background tasks. (The model starts them with Bash run_in_background.)');
    return notice(
      ['Background tasks (/tasks <id> shows output, /tasks stop <id> stops one):', ...taskLines(list)].join('\n'),
    );
  }
  const [first, second] = words;
  const stopping = first === 'stop' || first === 'kill';
  const id = stopping ? second : first;
  const task = id === undefined ? undefined : tasks.get(id);
  if (id === undefined || !task) {
    return notice(`No background task ${id ?? ''}. Usage: /tasks [<id> | stop <id>]`.replace('  ', ' '), 'warning');
  }
  if (stopping) {
    if (task.status !== 'running') return notice(`${task.id} is not running (${statusOf(task)}).`, 'warning');
    const stopped = await tasks.stop(task.id);
    return notice(`Stopped ${task.id} (${stopped ? statusOf(stopped) : 'stopped'}).`);
  }
  let tail: string;
  try {
    tail = await outputTail(task);
  } catch (error) {
    return notice(`Could not read ${task.outputFile}: ${String(error)}`, 'error');
  }
  notice(
    [
      `${task.id}  ${statusOf(task)}  ${task.command}`,
      tail === '' ? '(no output yet)' : tail,
      `Full output: ${task.outputFile}`,
    ].join('\n'),
  );
}
