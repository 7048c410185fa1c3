/**
 * Bash on a command host (command-host.ts): the approved command runs where the host runs it (an editor's
 * terminal), bounded by Bash's own timeout and the call's signal, and comes back as the same outcome a local run
 * has, so the result the model gets is rendered by the same code. The host has one output stream (stdout and
 * stderr interleaved as a terminal shows them): it is the outcome's stdout, cut to the same head-and-tail bound.
 */
import { BASH_MAX_OUTPUT_CHARS, CappedOutput } from './capped-output.js';
import type { CommandHost } from './command-host.js';
import type { ToolContext } from '../registry/tool-context.js';

export type Ending =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timeout' }
  | { kind: 'abort' }
  | { kind: 'spawn_error'; message: string }
  /** Moved to the background while it ran (Ctrl+B): it goes on as this task. */
  | { kind: 'background'; taskId: string; outputFile: string };

/** How a command ended and what it wrote, wherever it ran. */
export interface CommandOutcome {
  ending: Ending;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** Bytes asked of the host: room for the head-and-tail cut below (a character is up to 4 bytes). */
export const HOST_OUTPUT_LIMIT = BASH_MAX_OUTPUT_CHARS * 4;

export async function runOnHost(
  host: CommandHost,
  input: { command: string; timeout_ms: number },
  ctx: ToolContext,
  /** The shell and its arguments (`bash -c <command>`), or bubblewrap around them (the sandbox). */
  spec: { file: string; args: string[]; env: Record<string, string> },
): Promise<CommandOutcome> {
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, input.timeout_ms);
  const onAbort = (): void => stop.abort();
  if (ctx.signal.aborted) stop.abort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await host.run({
      command: spec.file,
      args: spec.args,
      cwd: ctx.projectRoot,
      env: spec.env,
      outputLimit: HOST_OUTPUT_LIMIT,
      callId: ctx.callId,
      signal: stop.signal,
    });
    const output = new CappedOutput();
    output.push(result.output);
    output.end();
    const ending: Ending =
      result.startError !== undefined
        ? { kind: 'spawn_error', message: result.startError }
        : result.exit
          ? { kind: 'exit', code: result.exit.code, signal: result.exit.signal as NodeJS.Signals | null }
          : timedOut
            ? { kind: 'timeout' }
            : { kind: 'abort' };
    return {
      ending,
      stdout: output.text(),
      stderr: '',
      stdoutTruncated: output.truncated || result.truncated,
      stderrTruncated: false,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ending: { kind: 'spawn_error', message },
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
