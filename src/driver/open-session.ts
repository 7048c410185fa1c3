/**
 * The one way a front opens a session (REPL, `-p`, headless stream-json, ACP): the runtime's conversation, rules,
 * hooks, custom commands, MCP resource mentions and user shell wired into one SessionDriver, and the one `close()`
 * that ends it (SessionEnd hooks, MCP servers, the session file). A front says only what it can do (ask, show a slash
 * command, take `# notes`, run `!` lines) and translates the driver's events to its wire; it assembles nothing.
 */
import type { SessionManager } from '../loop/controller.js';
import type { SessionEndReason, SessionStartSource } from '../hooks/hook-events.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { mcpAttachments } from '../runtime/mcp-front.js';
import type { CustomCommandsPort } from './custom-commands-port.js';
import type { DriverHooksOptions } from './driver-hooks.js';
import type { PermissionBroker } from './permission-broker.js';
import { SessionDriver } from './session-driver.js';
import type { SessionDriverOptions } from './session-driver-options.js';
import { createUserShell } from './user-shell.js';

export { loadSessionCommands } from './session-commands.js';

/**
 * What a front can do. Each capability it lacks changes the routing: without `slash`, `/help` goes to the model as
 * typed (`-p`); without `userShell`, a `!` line does too.
 */
export interface FrontCapabilities {
  /** Asks the person about calls no rule or mode decides; absent when nobody can answer (`-p`). */
  broker?: PermissionBroker | undefined;
  /** Built-in slash commands (`/help`, `/clear`, …) the front shows or does itself. */
  slash?: SessionDriverOptions['slash'];
  /** Without `slash`: `/compact` and `/init` are run by the driver itself, other `/` lines are prompts (ACP). */
  driverCommands?: boolean | undefined;
  /** `# note` lines go to the front (a memory file the person picks). */
  memoryNote?: SessionDriverOptions['memoryNote'];
  /** `!` lines run with the Bash tool in the project directory (the REPL). */
  userShell?: boolean | undefined;
  /** The custom commands (loadSessionCommands); absent: no `/name` is a custom command. */
  customCommands?: CustomCommandsPort | undefined;
  /** A custom command's `model:` (see SessionDriverOptions.applyCommandModel); default `'turn'`. */
  applyCommandModel?: boolean | 'turn' | undefined;
  /** How the first session was opened, for SessionStart hooks (`resume` for `-c`/`-r`/`session/load`). */
  startSource?: SessionStartSource | undefined;
  /**
   * A host registers hook callbacks after the session opened (the SDK's initialize): the driver gets an empty hook
   * engine to take them unless hooks are disabled. Nothing is spawned for it.
   */
  hostHooks?: boolean | undefined;
  /** One line for the person (a close step that failed). */
  warn?: ((line: string) => void) | undefined;
}

/**
 * The parts of a runtime a session is made of. A front passes its whole Runtime; a view tested without one passes
 * only `sessions` (then no rules, hooks, MCP or shell are in effect).
 */
export type SessionRuntime = { sessions: SessionManager & { close?(): void } } & Partial<
  Pick<Runtime, 'policy' | 'hooks' | 'extensions' | 'transcriptPathOf' | 'projectRoot' | 'registry' | 'mcp'>
>;

export interface OpenedSession {
  readonly driver: SessionDriver;
  /**
   * Ends the session once: SessionEnd hooks (with `reason`), then the MCP servers, then the session file. A step that
   * fails is told to `warn` and the next still runs; never rejects.
   */
  close(reason?: SessionEndReason): Promise<void>;
}

/** The hooks of `runtime` as the driver runs them; undefined when the runtime has none (a view under test). */
function hooksOf(runtime: SessionRuntime, front: FrontCapabilities): DriverHooksOptions | undefined {
  const { hooks, transcriptPathOf, projectRoot } = runtime;
  if (!hooks || !transcriptPathOf || projectRoot === undefined) return undefined;
  return {
    opened: hooks,
    subagentStop: runtime.extensions?.subagentStop,
    transcriptPathOf,
    cwd: projectRoot,
    startSource: front.startSource ?? 'startup',
  };
}

/** An empty engine for a host's hook callbacks (the SDK's initialize), unless hooks are off. */
async function withHostEngine(options: DriverHooksOptions, projectRoot: string): Promise<DriverHooksOptions> {
  if (options.opened.engine || options.opened.loaded.disabledBy) return options;
  const { HookEngine } = await import('../hooks/hook-engine.js');
  return { ...options, opened: { ...options.opened, engine: new HookEngine([], { projectRoot }) } };
}

/** Opens `runtime`'s session for a front with `front`'s capabilities (the one `new SessionDriver` of mca). */
export async function openSession(runtime: SessionRuntime, front: FrontCapabilities): Promise<OpenedSession> {
  const hooks = hooksOf(runtime, front);
  return openSessionNow(
    runtime,
    front,
    hooks && front.hostHooks ? await withHostEngine(hooks, runtime.projectRoot ?? '/') : hooks,
  );
}

/**
 * `openSession` without waiting (the REPL opens its driver while its first frame renders). `hostHooks` is not
 * taken here (it may need to load the hook engine).
 */
export function openSessionNow(
  runtime: SessionRuntime,
  front: FrontCapabilities,
  hooks: DriverHooksOptions | undefined = hooksOf(runtime, front),
): OpenedSession {
  const { registry, projectRoot } = runtime;
  const shell = front.userShell && registry && projectRoot !== undefined;
  const attachments = mcpAttachments(runtime);
  const driver = new SessionDriver({
    sessions: runtime.sessions,
    policy: runtime.policy,
    broker: front.broker,
    customCommands: front.customCommands,
    applyCommandModel: front.applyCommandModel ?? 'turn',
    hooks,
    attachments,
    slash: front.slash,
    driverCommands: front.driverCommands,
    memoryNote: front.memoryNote,
    ...(front.userShell ? { shellLines: { runner: shell ? createUserShell(registry, projectRoot) : undefined } } : {}),
  });
  let closing: Promise<void> | undefined;
  const step = async (what: string, work: () => unknown): Promise<void> => {
    try {
      await work();
    } catch (error) {
      front.warn?.(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    driver,
    close: (reason = 'other') =>
      (closing ??= (async () => {
        await step('SessionEnd hooks failed', () => driver.close(reason));
        // MCP servers end before the process does: a server's process or socket must not keep mca alive.
        await step('MCP servers did not close', () => runtime.mcp?.close());
        await step('Could not close the session', () => runtime.sessions.close?.());
      })()),
  };
}
