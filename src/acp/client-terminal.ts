/**
 * The command-host port over an ACP client's terminals (used only when the client offers `terminal`): an approved
 * Bash command runs in the editor's terminal (`terminal/create`), shown in its tool call as `terminal` content
 * while it runs; mca waits for it (`terminal/wait_for_exit`), kills it when Bash's timeout or the turn's cancel
 * aborts the run (`terminal/kill`), takes its output (`terminal/output`) and releases it (`terminal/release`).
 * The decision point, hooks and checkpoints ran before the port is called (src/tools/processes/bash-host.ts).
 *
 * A client that stops answering costs at most TERMINAL_REPLY_MS per step once the run is aborted: the turn's
 * cancel and Bash's timeout always end the call.
 *
 * Background commands (Bash `run_in_background`) run in a terminal of their own too (`startBackground`), shown in
 * the call that started them; the task registry reads it (`terminal/output`), stops it (`terminal/kill`) and
 * releases it once `terminal/wait_for_exit` answers. A client that never answers an output or kill costs at most
 * TERMINAL_REPLY_MS per read or stop.
 */
import type { AgentContext, ClientCapabilities, TerminalHandle } from '@agentclientprotocol/sdk';
import type { HostedTask } from '../tools/processes/background-tasks.js';
import type { CommandHost, HostCommand, HostCommandResult } from '../tools/processes/command-host.js';

/** How long mca waits for the client's kill, output and release answers after a run was aborted. */
export const TERMINAL_REPLY_MS = 5_000;

export function offersTerminal(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.terminal === true;
}

export interface ClientTerminalOptions {
  client: AgentContext;
  sessionId: () => string;
  /** Puts the terminal into the call's content and resolves once that update is written (before any release). */
  show: (callId: string, terminalId: string) => Promise<void>;
}

/** `work`, or undefined after `ms` (a client that never answers does not hold the turn). */
async function bounded<T>(work: Promise<T>, ms = TERMINAL_REPLY_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  // A late failure after the bound passed must not become an unhandled rejection.
  work.catch(() => undefined);
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves when `signal` aborts (at once when it already has). */
function aborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/** A terminal created after its run was aborted: killed and released once the client's answer arrives. */
function late(creating: Promise<TerminalHandle>): void {
  creating.then(
    async (terminal) => {
      await bounded(terminal.kill().catch(() => undefined));
      await bounded(terminal.release().catch(() => undefined));
    },
    () => undefined,
  );
}

/** A background command in a terminal of the client's own, for the task registry. */
async function startInTerminal(
  options: ClientTerminalOptions,
  command: Omit<HostCommand, 'signal'>,
): Promise<HostedTask> {
  const terminal = await options.client.createTerminal({
    sessionId: options.sessionId(),
    command: command.command,
    args: command.args,
    cwd: command.cwd,
    env: Object.entries(command.env).map(([name, value]) => ({ name, value })),
    outputByteLimit: command.outputLimit,
  });
  await options.show(command.callId, terminal.id);
  return {
    output: async () => {
      const output = await bounded(terminal.currentOutput());
      return typeof output?.output === 'string' ? output.output : '';
    },
    exited: terminal.waitForExit().then((exit) => ({ code: exit.exitCode ?? null, signal: exit.signal ?? null })),
    kill: async () => void (await bounded(terminal.kill().catch(() => undefined))),
    release: async () => void (await bounded(terminal.release().catch(() => undefined))),
  };
}

export function clientTerminal(options: ClientTerminalOptions): CommandHost {
  const { client } = options;
  return {
    startBackground: (command) => startInTerminal(options, command),
    async run(command): Promise<HostCommandResult> {
      // The create is not abandoned on abort: a terminal the client makes after the cancel would stay open, so a
      // late answer is released (and killed) as soon as it arrives (late() below).
      const creating = client.createTerminal(
        {
          sessionId: options.sessionId(),
          command: command.command,
          args: command.args,
          cwd: command.cwd,
          env: Object.entries(command.env).map(([name, value]) => ({ name, value })),
          outputByteLimit: command.outputLimit,
        },
        { cancellationSignal: command.signal },
      );
      let terminal: TerminalHandle;
      try {
        const first = await Promise.race([creating, aborted(command.signal)]);
        if (first === 'aborted') {
          late(creating);
          return { output: '', truncated: false };
        }
        terminal = first;
      } catch (error) {
        if (command.signal.aborted) return { output: '', truncated: false };
        return { startError: `the editor's terminal did not start it: ${reason(error)}`, output: '', truncated: false };
      }
      try {
        await options.show(command.callId, terminal.id);
        const exited = terminal.waitForExit();
        exited.catch(() => undefined);
        const ended = await Promise.race([exited, aborted(command.signal)]);
        let exit: HostCommandResult['exit'];
        if (ended === 'aborted') await bounded(terminal.kill().catch(() => undefined));
        else exit = { code: ended.exitCode ?? null, signal: ended.signal ?? null };
        const output = await bounded(terminal.currentOutput());
        const text = typeof output?.output === 'string' ? output.output : '';
        return { ...(exit ? { exit } : {}), output: text, truncated: output?.truncated === true };
      } catch (error) {
        return { startError: `the editor's terminal failed: ${reason(error)}`, output: '', truncated: false };
      } finally {
        await bounded(terminal.release().catch(() => undefined));
      }
    },
  };
}
