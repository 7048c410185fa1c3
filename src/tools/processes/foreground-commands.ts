/**
 * Foreground Bash commands still running, by tool_use id, so a person (Ctrl+B in the REPL) or an SDK program
 * (`background_tasks`) can move them to the background: the call then returns at once with a task id and the
 * command goes on as a background task (background-tasks.ts).
 */
const running = new Map<string, () => void>();

/** Registers a running command's way to move to the background; returns the unregister function. */
export function registerForeground(callId: string, toBackground: () => void): () => void {
  running.set(callId, toBackground);
  return () => {
    if (running.get(callId) === toBackground) running.delete(callId);
  };
}

/**
 * Moves the command of `callId` (every running one when absent) to the background. False when `callId` was given
 * and matched no running command, or when none runs.
 */
export function moveToBackground(callId?: string): boolean {
  const movers = callId === undefined ? [...running.values()] : [running.get(callId)].filter((m) => m !== undefined);
  for (const move of movers) move();
  return movers.length > 0;
}
