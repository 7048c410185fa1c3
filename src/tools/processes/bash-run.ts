/**
 * Bash's working code: spawning the command (here in its own process group, in the sandbox, or on the front's
 * command host), bounding its output and time, and the result. Loaded with the first command (tool-code.ts); the
 * definition and the result forms stay in bash.ts.
 */
import { spawn } from 'node:child_process';
import { childEnvironment } from '../../config/child-environment.js';
import type { BoxedSpawn } from './bash-box.js';
import { runOnHost, type CommandOutcome, type Ending } from './bash-host.js';
import { once } from '../registry/lazy-modules.js';
import { registerForeground } from './foreground-commands.js';
import { CappedOutput } from './capped-output.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { terminateGroup, trackGroup, untrackGroup } from './process-group.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { BashData } from '../registry/tool-data.js';
import { findExecutable } from './which.js';

type BashInput = { command: string; timeout_ms: number; dangerouslyDisableSandbox?: boolean | undefined };

/** What is spawned: the shell itself, or bubblewrap around it (the sandbox). */
interface SpawnSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** How long stdout/stderr may stay open after the shell exits (a background job holding them). */
const STREAM_GRACE_MS = 250;

/**
 * Background shells' code (background-task-tools.ts and the task registry), loaded by the first command that runs,
 * before it starts (Ctrl+B adopts a running command synchronously): an answer that runs no command never loads it.
 */
const loadBackground = once(() => import('./background-task-tools.js'));
type BackgroundCode = Awaited<ReturnType<typeof loadBackground>>;

function render(data: BashData): string {
  const parts: string[] = [];
  if (data.stdout !== '') parts.push(data.stdout.replace(/\n$/, ''));
  if (data.stderr !== '') parts.push(`[stderr]\n${data.stderr.replace(/\n$/, '')}`);
  if (parts.length === 0) parts.push('(no output)');
  if (!data.timed_out && !data.interrupted && data.exit_code !== 0) {
    parts.push(`[exit code ${data.exit_code ?? `none, signal ${data.signal ?? '?'}`}]`);
  }
  return parts.join('\n');
}

/** The user's environment, minus credentials, with pagers and git prompts turned off (nobody can answer them). */
function commandEnvironment(ctx: ToolContext): Record<string, string> {
  return childEnvironment({ PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' }, ctx.env);
}

/**
 * Runs an approved command, bounded by its timeout and the call's signal: the model's commands on the front's
 * command host when it has one (an editor's terminal), else here in their own process group.
 */
export async function runCommand(
  input: BashInput & { run_in_background?: boolean | undefined },
  ctx: ToolContext,
): Promise<ToolEnvelope> {
  if (ctx.signal.aborted)
    return errorEnvelope('EXECUTION_ERROR', 'Bash was interrupted before it started.', {
      data: { interrupted: true },
    });
  const shell = findExecutable('bash') ?? '/bin/sh';
  const background = await loadBackground();
  // The box is asked again here: a hook may have changed the input since the call was prepared.
  const inBox = ctx.box?.place(input, ctx.source).boxed === true;
  let boxed: BoxedSpawn | undefined;
  if (inBox && ctx.box) {
    try {
      boxed = await ctx.box.spawn(input.command, shell, commandEnvironment(ctx));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return errorEnvelope('EXECUTION_ERROR', `The sandbox could not start, so the command did not run: ${why}`);
    }
  }
  const spec = boxed ?? { file: shell, args: ['-c', input.command], env: commandEnvironment(ctx) };
  // Background shells outlive this call (background-tasks.ts); a boxed one runs in the box like any other.
  if (input.run_in_background === true) return await background.startBackgroundCommand(input, ctx, { ...spec, boxed });
  const outcome =
    ctx.commands && ctx.source === 'model'
      ? await runOnHost(ctx.commands, input, ctx, spec)
      : await runLocally(input, ctx, spec, background);
  const failed = outcome.ending.kind !== 'exit' || outcome.ending.code !== 0;
  const place = ctx.box?.place(input, ctx.source);
  const note = boxed ? await boxed.finish({ failed, stdout: outcome.stdout, stderr: outcome.stderr }) : place?.note;
  return resultOf(input, outcome, background, { note, label: boxed ? 'in the sandbox' : place?.label });
}

/** Runs the command in its own process group and collects its bounded output. */
async function runLocally(
  input: BashInput,
  ctx: ToolContext,
  spec: SpawnSpec,
  background: BackgroundCode,
): Promise<CommandOutcome> {
  const stdout = new CappedOutput();
  const stderr = new CappedOutput();
  // Own process group (detached) so a timeout or abort can kill the shell and everything it started.
  // node:child_process directly: loading a process library cost the first command ~17 ms for nothing we use.
  const child = spawn(spec.file, spec.args, {
    cwd: ctx.projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: spec.env,
  });
  // A late 'error' (after the exit was seen) must not become an uncaught exception.
  child.on('error', () => undefined);
  const pgid = child.pid;
  if (pgid !== undefined) trackGroup(pgid);
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const streamsClosed = Promise.all(
    [child.stdout, child.stderr].map((stream) =>
      stream ? new Promise<void>((resolve) => stream.once('close', () => resolve())) : Promise.resolve(),
    ),
  );

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let unregister: (() => void) | undefined;
  const ending = await new Promise<Ending>((resolve) => {
    child.once('exit', (code, signal) => resolve({ kind: 'exit', code, signal }));
    child.once('error', (error: Error) => resolve({ kind: 'spawn_error', message: error.message }));
    timer = setTimeout(() => resolve({ kind: 'timeout' }), input.timeout_ms);
    onAbort = () => resolve({ kind: 'abort' });
    // A listener added after the abort would never fire.
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    // Ctrl+B / the SDK's background_tasks: the command goes on as a background task (background-task-tools.ts).
    unregister = registerForeground(ctx.callId, () => {
      const moved = background.adoptInBackground(child, input, ctx, stdout.text() + stderr.text());
      if (moved) resolve(moved);
    });
  });
  unregister?.();
  clearTimeout(timer);
  if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  // The task registry tracks the group now.
  if (ending.kind === 'background')
    return { ending, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false };

  let exitCode: number | null = null;
  let signal: NodeJS.Signals | null = null;
  if (ending.kind === 'timeout' || ending.kind === 'abort') {
    if (child.pid !== undefined) await terminateGroup(child.pid);
  } else if (ending.kind === 'exit') {
    exitCode = ending.code;
    signal = ending.signal;
  }
  // The grace timer is cleared once the streams close: a pending timer would keep `-p` alive after its answer.
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([streamsClosed, new Promise((resolve) => (grace = setTimeout(resolve, STREAM_GRACE_MS)))]);
  clearTimeout(grace);
  if (pgid !== undefined) untrackGroup(pgid);
  child.stdout?.destroy();
  child.stderr?.destroy();
  stdout.end();
  stderr.end();
  return {
    ending: ending.kind === 'exit' ? { kind: 'exit', code: exitCode, signal } : ending,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
  };
}

/** The tool result of a finished command: the same text wherever it ran. */
function resultOf(
  input: BashInput,
  outcome: CommandOutcome,
  background: BackgroundCode,
  sandbox: { note?: string | undefined; label?: string | undefined } = {},
): ToolEnvelope {
  const boxNote = sandbox.note;
  const { ending } = outcome;
  const exitCode = ending.kind === 'exit' ? ending.code : null;
  const signal = ending.kind === 'exit' ? ending.signal : null;
  const data: BashData = {
    command: input.command,
    exit_code: exitCode,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
  };
  if (signal) data.signal = signal;
  if (sandbox.label !== undefined) data.sandbox = sandbox.label;
  if (outcome.stdoutTruncated) data.stdout_truncated = true;
  if (outcome.stderrTruncated) data.stderr_truncated = true;
  const context = { command: input.command, timeout_ms: input.timeout_ms };
  const raw = data as unknown as Record<string, unknown>;
  const failure = (code: 'TIMEOUT' | 'EXECUTION_ERROR', message: string): ToolEnvelope => {
    const envelope = errorEnvelope(code, message, { data: raw, context });
    const note = boxNote === undefined ? '' : `\n${boxNote}`;
    return { ...envelope, text: `${envelope.text}\n${render(data)}${note}` };
  };
  if (ending.kind === 'background') return background.movedToBackground(input.command, ending);
  if (ending.kind === 'spawn_error')
    return errorEnvelope('EXECUTION_ERROR', `Could not start the command: ${ending.message}`, { data: raw, context });
  if (ending.kind === 'timeout') {
    data.timed_out = true;
    return failure('TIMEOUT', `Command timed out after ${input.timeout_ms} ms and was killed.`);
  }
  if (ending.kind === 'abort') {
    data.interrupted = true;
    return failure('EXECUTION_ERROR', 'Command interrupted by the user and killed.');
  }
  if (exitCode !== 0) {
    const why = exitCode === null ? `was killed by ${signal ?? 'a signal'}` : `exited with code ${exitCode}`;
    return failure('EXECUTION_ERROR', `Command ${why}.`);
  }
  // A command can succeed although the box refused something (an HTTP client printing the proxy's 403).
  const text = boxNote === undefined ? render(data) : `${render(data)}\n${boxNote}`;
  return toolResult(data, text, {
    stats: { exitCode: 0, stdoutChars: data.stdout.length, stderrChars: data.stderr.length },
    context,
  });
}
