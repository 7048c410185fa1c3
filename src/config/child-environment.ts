/**
 * The environment of every process mca starts for a session (Bash commands, hook scripts, MCP stdio servers):
 * mca's own, then the session's settings `env` over it, minus mca's credentials.
 *
 * A settings file's `env` holds for the whole process when the process is one session (the CLI, as in Claude
 * Code: the runtime writes it into process.env). When one process serves several sessions of different projects
 * (ACP), each runtime keeps its `env` as an overlay instead, and the front runs each session's work inside
 * `runWithEnvironment(overlay, …)`: what one project's settings set never reaches another project's commands.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Variables the processes mca starts never see: mca's own credentials (a command could print them). */
export const WITHHELD_VARIABLES: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY'];

export type EnvironmentOverlay = Readonly<Record<string, string>>;

/**
 * One runtime's environment, read-only: process.env as the process started, with the runtime's settings `env`
 * over it. The runtime hands it to everything that reads a variable (the provider transport's proxy variables,
 * WebFetch's limits and proxy, the tools, the processes mca starts), so several runtimes in one process (ACP
 * sessions of different projects) never see each other's settings. Outside src/config and src/cli nothing reads
 * process.env itself (eslint.config.js).
 */
export type EnvironmentView = Readonly<Record<string, string | undefined>>;

/**
 * Claude Code's meaning of a settings `env` for a process that is one session (the CLI): it holds for the whole
 * process, mca's own reads and every command it runs. A process serving several runtimes never calls this.
 */
export function applyToProcess(overlay: EnvironmentOverlay): void {
  Object.assign(process.env, overlay);
}

/** The view of process.env with `overlay` (a runtime's settings `env`) over it. */
export function environmentView(overlay: EnvironmentOverlay = {}): EnvironmentView {
  return Object.freeze({ ...process.env, ...overlay });
}

/**
 * Made on the first `runWithEnvironment` with a non-empty overlay: on Node 20 an AsyncLocalStorage turns on promise
 * hooks for the whole process (measured: about 3 ms more per tool step), which a process with one session (the
 * CLI, where the overlay is always empty) must not pay.
 */
let overlayScope: AsyncLocalStorage<EnvironmentOverlay> | undefined;

/** Runs `work` (and everything it starts, timers and promises included) with `overlay` as the session's env. */
export function runWithEnvironment<T>(overlay: EnvironmentOverlay, work: () => T): T {
  if (overlayScope === undefined && Object.keys(overlay).length === 0) return work();
  overlayScope ??= new AsyncLocalStorage<EnvironmentOverlay>();
  return overlayScope.run(overlay, work);
}

/** The session's overlay in effect here (empty outside any `runWithEnvironment`). */
export function currentOverlay(): EnvironmentOverlay {
  return overlayScope?.getStore() ?? {};
}

/** process.env with the session's overlay over it: what mca's own reads of a variable should see. */
export function sessionEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, ...currentOverlay() };
}

/**
 * The environment for a child process: the runtime's view (when the caller has it; else process.env with the
 * session's overlay), then `extra`; credentials withheld.
 */
export function childEnvironment(
  extra: Readonly<Record<string, string>> = {},
  view: EnvironmentView = sessionEnvironment(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(view)) {
    if (value !== undefined && !WITHHELD_VARIABLES.includes(name)) env[name] = value;
  }
  return { ...env, ...extra };
}
