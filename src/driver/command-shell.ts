/**
 * How a custom command's `` !`command` `` lines run: with the Bash tool, through the session's decision point
 * (source `command`) with the command's own `allowed-tools` as allow rules, in the mode the driver holds when the
 * line runs (the REPL asks, -p denies what no rule allows). A project's commands are project-supplied executables:
 * their `!` lines run only once the project is trusted.
 */
import { expandCustomCommand, type CommandShell, type ExpandedCommand } from '../commands/expand-command.js';
import type { CustomCommand } from '../commands/custom-commands.js';
import type { CommandExpansion } from './custom-commands-port.js';
import { parseRule, type PermissionRule } from '../permissions/rule.js';
import type { BashData } from '../tools/registry/tool-data.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { runBashWith } from './user-shell.js';

/** `!` lines of a custom command stop after this long. */
export const COMMAND_SHELL_TIMEOUT_MS = 120_000;

export interface CommandShellOptions {
  /** The session's registry (it redacts the keys from the output). */
  registry: ToolRegistry;
  projectRoot: string;
  trusted: boolean;
  /** The session's decision point and the expansion's signal. */
  how: CommandExpansion;
}

function allowedToolRules(command: CustomCommand): PermissionRule[] {
  const source = `allowed-tools of ${command.path}`;
  return command.allowedTools.flatMap((text) => {
    const parsed = parseRule(text, 'allow', source);
    return parsed.ok ? [parsed.rule] : [];
  });
}

function outputOf(data: unknown): string {
  const bash = data as Partial<BashData> | undefined;
  const parts = [bash?.stdout ?? '', bash?.stderr ?? ''].filter((part) => part.trim() !== '');
  const exit = bash?.exit_code;
  if (exit !== undefined && exit !== null && exit !== 0) parts.push(`[exit code ${exit}]`);
  return parts.join('\n');
}

export function createCommandShell(options: CommandShellOptions): (command: CustomCommand) => CommandShell {
  return (command) => {
    const widening = command.scope === 'user' || options.trusted;
    const decide = options.how.decisions.withAllowRules(widening ? allowedToolRules(command) : []);
    const run = runBashWith(options.registry, options.projectRoot, COMMAND_SHELL_TIMEOUT_MS, 'command');
    return async (line) => {
      if (!widening) {
        return `[!\`${line}\` not run: commands from an untrusted project do not run shell lines; \`mca trust\` allows them]`;
      }
      const envelope = await run(line, options.how.signal, decide);
      if (envelope.error?.code === 'PERMISSION_DENIED') return `[!\`${line}\` not run: ${envelope.error.message}]`;
      if (envelope.status === 'error' && envelope.data === undefined) {
        return `[!\`${line}\` failed: ${envelope.error?.message ?? 'unknown error'}]`;
      }
      return outputOf(envelope.data);
    };
  };
}

/** A custom command expanded for this session: its `!` lines run under the session's registry, trust and `how`. */
export async function expandForSession(
  booted: Runtime,
  command: CustomCommand,
  args: string,
  how: CommandExpansion,
): Promise<ExpandedCommand> {
  const shell = createCommandShell({
    registry: booted.registry,
    projectRoot: booted.projectRoot,
    trusted: booted.trusted,
    how,
  });
  return await expandCustomCommand(command, args, shell(command));
}
