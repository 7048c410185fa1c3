/**
 * A background command on the front's command host (an ACP client's terminal, src/acp/client-terminal.ts): the host
 * starts it, the task registry takes it over (reads copy its output to the task's file, TaskStop kills it there,
 * its end releases it). When the registry refuses (the limit), the host's terminal is killed and released at once.
 */
import { backgroundTasks, BACKGROUND_OUTPUT_LIMIT_BYTES, type StartOutcome } from './background-tasks.js';
import type { StartRequest } from './background-task-record.js';
import type { CommandHost } from './command-host.js';

export async function startOnHost(
  host: CommandHost,
  request: Pick<StartRequest, 'command' | 'callId' | 'dir' | 'onEnded'>,
  cwd: string,
  spec: { file: string; args: string[]; env: Record<string, string> },
): Promise<StartOutcome> {
  if (!host.startBackground) return { ok: false, message: 'This front runs no background commands.' };
  let hosted;
  try {
    hosted = await host.startBackground({
      command: spec.file,
      args: spec.args,
      cwd,
      env: spec.env,
      outputLimit: BACKGROUND_OUTPUT_LIMIT_BYTES,
      callId: request.callId,
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `The editor's terminal did not start the command: ${why}` };
  }
  const started = backgroundTasks.attachHosted(request, hosted);
  if (!started.ok) void hosted.kill().finally(() => hosted.release());
  return started;
}
